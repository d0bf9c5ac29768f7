fn main() -> std::process::ExitCode {
    no_huge_pages();
    kubedrill::cli::main()
}

/// mimalloc asks for transparent huge pages on its arenas, so each 2 MiB region the app
/// first touches is zeroed whole and counted whole: a start that needs 9 MiB showed a
/// peak RSS of 23 MiB and spent its first frame's time in page clearing
/// (benches/startup.py). The app is short-lived and interactive, so it opts out for the
/// whole process (the flag is read at fault time, so arenas already reserved comply too);
/// the simulator's benchmarks are separate binaries and keep them.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes integer arguments only and touches no
    // memory of ours; a kernel without it returns an error, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
