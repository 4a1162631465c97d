package io.hdfl.privacy.ledger;

/**
 * A ledger line or file that cannot be read as a ledger: malformed JSON, a duplicate, unknown or
 * missing field, a value of the wrong type or shape, an over-long line, a torn last line. The
 * message is one line, {@code "line N: problem"} when the line is known.
 *
 * <p>An {@link IllegalArgumentException} so that commands which merely read a ledger report it as
 * bad input; {@link LedgerVerifier} instead turns it into a failed {@link Verification}.
 */
public final class LedgerFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final long line;
  private final String problem;

  /** A problem whose line is not known yet (0). */
  public LedgerFormatException(String problem) {
    this(0, problem);
  }

  public LedgerFormatException(long line, String problem) {
    super(line > 0 ? "line " + line + ": " + problem : problem);
    this.line = line;
    this.problem = problem;
  }

  /** 1-based line number, 0 if unknown. */
  public long line() {
    return line;
  }

  /** What is wrong, without the line number. */
  public String problem() {
    return problem;
  }

  /** The same problem placed at {@code lineNumber}. */
  LedgerFormatException atLine(long lineNumber) {
    return new LedgerFormatException(lineNumber, problem);
  }
}
