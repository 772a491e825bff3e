//! `workflow-state`: the phasegate CLI. All logic lives in `phasegate-ops`;
//! the front end is `phasegate-cli`.
fn main() -> std::process::ExitCode {
    phasegate_cli::main()
}
