package io.hdfl.cli;

import picocli.CommandLine.Command;

/** The top-level {@code hdfl} command. */
@Command(
    name = "hdfl",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Private decentralized hyperdimensional learning for edge devices.",
    subcommands = {SimulateCommand.class, PeerCommand.class, TrainCommand.class, EvalCommand.class, DataCommand.class,
        RecordCommand.class, BenchCommand.class,
        PrivacyCommand.class, LedgerCommand.class, RosterCommand.class},
    commandListHeading = "%nCommands:%n",
    footer = {"", "Exit codes: 0 success, 1 check failed (ledger verify), 2 bad input or usage, 70 internal error."})
final class HdflCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
