fn main() -> std::process::ExitCode {
    // mimalloc asks for transparent huge pages on its arenas, so each 2 MiB region the app
    // first touches is zeroed whole and counted whole: peak RSS at the first frame was
    // 28 MiB, about 17 MiB without (benches/startup.py). The app is short-lived and
    // interactive, so it opts out before anything is allocated (the flag is read at fault
    // time, so arenas reserved later comply too), but for the parsing of a big user deck
    // (`cli::deck::load_paths`). The simulator's benchmarks are separate binaries and keep
    // them: without, the 100-node drain costs 2.0 ms a simulated second instead of 1.5.
    kubedrill::cli::huge_pages(false);
    kubedrill::cli::main()
}
