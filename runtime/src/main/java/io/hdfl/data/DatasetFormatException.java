package io.hdfl.data;

/**
 * A data file could not be used: it is missing, truncated, malformed, or holds values hdfl will
 * not accept. The message is a single user-facing line of the form {@code "<file>: <problem>"},
 * fit to print as-is, e.g. {@code "isolet.choir_dat: truncated sample 37 (expected 2472 bytes, got
 * 100)"}.
 *
 * <p>Unchecked, so that command-line code can catch it in one place; genuine I/O failures
 * (permissions, device errors) still surface as {@link java.io.IOException}.
 */
public final class DatasetFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final String problem;

  /**
   * @param source the file (or stream description) the problem is in
   * @param problem what is wrong, without the file name; line breaks are replaced by spaces
   */
  public DatasetFormatException(String source, String problem) {
    this(source, problem, null);
  }

  public DatasetFormatException(String source, String problem, Throwable cause) {
    super(oneLine(source) + ": " + oneLine(problem), cause);
    this.source = source;
    this.problem = problem;
  }

  /** The file or stream description the problem was found in. */
  public String source() {
    return source;
  }

  /** The problem alone, without the file name. */
  public String problem() {
    return problem;
  }

  private static String oneLine(String s) {
    return String.valueOf(s).replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
  }
}
