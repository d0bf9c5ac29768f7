fn main() -> std::process::ExitCode {
    kubedrill::cli::main()
}
