//! `workflow-state`: the phasegate CLI. All logic lives in `phasegate-cli`.
fn main() -> std::process::ExitCode {
    phasegate_cli::workflow_state_main()
}
