package io.hdfl.io;

/** Untrusted text (ids and strings from received frames) made safe for one log line. */
public final class LogText {
  private LogText() {}

  /**
   * {@code s} between {@code quote} characters, with control characters, the quote, backslashes and
   * non-ASCII escaped as {@code \\uXXXX} and cut after 64 characters, so that it can neither forge
   * nor break a log line.
   */
  public static String quoted(String s, char quote) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), 64) + 8).append(quote);
    int n = Math.min(s.length(), 64);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7E || c == quote || c == '\\') {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    b.append(quote);
    if (s.length() > n) {
      b.append("...(").append(s.length()).append(" chars)");
    }
    return b.toString();
  }
}
