package io.hdfl.io;

import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PEM text (RFC 7468): a base64 DER block between BEGIN/END lines with a label. */
public final class Pem {
  private Pem() {}

  public static String encode(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  /**
   * The DER bytes of the one block labelled {@code label} in {@code text}.
   *
   * @throws IllegalArgumentException (message without the file name) if there is none, more than
   *     one, or its base64 is bad
   */
  public static byte[] decode(String text, String label) {
    Pattern p = Pattern.compile("-----BEGIN " + label + "-----\\s*([A-Za-z0-9+/=\\s]*?)-----END " + label + "-----");
    Matcher m = p.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException("no '" + label + "' PEM block");
    }
    String body = m.group(1);
    if (m.find()) {
      throw new IllegalArgumentException("more than one '" + label + "' PEM block");
    }
    try {
      return Base64.getMimeDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad base64 in the '" + label + "' PEM block");
    }
  }
}
