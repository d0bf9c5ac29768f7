fn main() -> std::process::ExitCode {
    kubedrill::cli::main()
}

/// Transparent huge pages off for the whole app, before anything is allocated.
///
/// mimalloc asks for huge pages on its arenas, so each 2 MiB region the app first touches
/// is zeroed whole and counted whole, and the kernel may stop to compact memory to find
/// one. The app is short-lived and interactive: without them, peak RSS at the first frame
/// is 10.3 MiB instead of 13.1, the slowest of 30 first frames 10.8 ms instead of 44.7,
/// and the slowest of 80 `check`s of a 4 MB deck 12.8 ms instead of 28.7
/// (benches/startup.py). Calling prctl first thing in `main` was too late: the Rust
/// runtime has allocated by then, in a huge page (`--version` peaked at 8.3 MiB, now 4.9).
/// So it runs as a constructor, before the runtime starts; the flag is read at fault
/// time, so arenas mimalloc reserves later comply. The simulator's benchmarks are
/// separate binaries and keep huge pages: without, the 100-node drain costs 2.0 ms a
/// simulated second instead of 1.5.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NO_HUGE_PAGES: extern "C" fn() = {
    extern "C" fn no_huge_pages() {
        // SAFETY: prctl with PR_SET_THP_DISABLE takes integer arguments only and touches
        // no memory of ours; a kernel without it returns an error, which changes nothing.
        unsafe {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1 as libc::c_ulong, 0, 0, 0);
        }
    }
    no_huge_pages
};
