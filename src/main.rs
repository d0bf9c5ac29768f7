fn main() -> std::process::ExitCode {
    // mimalloc asks for transparent huge pages on its arenas, so each 2 MiB region the app
    // first touches is zeroed whole and counted whole: peak RSS at the first frame was
    // 28 MiB, about 17 MiB without (benches/startup.py). The app is short-lived and
    // interactive, so it opts out before anything is allocated (the flag is read at fault
    // time, so arenas reserved later comply too). A big deck's parse was faster by median
    // with them, but the kernel's compaction for 2 MiB pages made one `check` in ten three
    // times slower; without, its slowest run of 80 was 12.8 ms against 28.7. The
    // simulator's benchmarks are separate binaries and keep them: without, the 100-node
    // drain costs 2.0 ms a simulated second instead of 1.5.
    kubedrill::cli::no_huge_pages();
    kubedrill::cli::main()
}
