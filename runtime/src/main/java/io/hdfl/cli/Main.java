package io.hdfl.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point of the {@code hdfl} command. Only {@link #main} exits the JVM. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the CLI with the process's stdout/stderr; returns the exit code. */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /**
   * Runs the CLI writing to the given streams; returns the exit code (0 ok, 1 a check failed, 2 bad
   * input or usage, 70 internal error).
   */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = commandLine();
    cli.setOut(out);
    cli.setErr(err);
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** A usage mistake: one line naming it and where to get help, exit 2 (no usage dump). */
  private static int usageError(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    cmd.getErr().println("hdfl: error: " + ex.getMessage() + " (see '" + cmd.getCommandSpec().qualifiedName()
        + " --help')");
    return UserErrorHandler.BAD_INPUT;
  }

  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new HdflCommand());
    cli.setExecutionExceptionHandler(new UserErrorHandler());
    cli.setParameterExceptionHandler(Main::usageError);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    return cli;
  }
}
