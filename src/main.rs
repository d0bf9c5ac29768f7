fn main() -> std::process::ExitCode {
    no_huge_pages();
    kubedrill::cli::main()
}

/// mimalloc asks for transparent huge pages on its arenas, so each 2 MiB region the app
/// first touches is zeroed whole and counted whole: peak RSS at the first frame was 28 MiB,
/// about 17 MiB without (benches/startup.py). The app is short-lived and interactive, so
/// it opts out for the whole process (the flag is read at fault time, so arenas already
/// reserved comply too), but for the parsing of a big user deck (`cli::load_user`). The simulator's benchmarks are separate binaries and keep them:
/// without, the 100-node drain costs 2.0 ms a simulated second instead of 1.5.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes integer arguments only and touches no
    // memory of ours; a kernel without it returns an error, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
