package io.hdfl.privacy.ledger;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Text surgery on ledger lines, as an attacker would do it. */
final class Tamper {
  private Tamper() {}

  /** The raw JSON text of {@code field}'s value in {@code line}. */
  static String value(String line, String field) {
    int[] span = span(line, field);
    return line.substring(span[0], span[1]);
  }

  /** {@code line} with {@code field}'s value replaced by the JSON text {@code json}. */
  static String set(String line, String field, String json) {
    int[] span = span(line, field);
    return line.substring(0, span[0]) + json + line.substring(span[1]);
  }

  private static int[] span(String line, String field) {
    String key = "\"" + field + "\":";
    int at = line.indexOf(key);
    if (at < 0 || line.indexOf(key, at + 1) >= 0) {
      throw new IllegalArgumentException("field " + field + " not found once in " + line);
    }
    int start = at + key.length();
    int end;
    char c = line.charAt(start);
    if (c == '"') {
      end = start + 1;
      while (line.charAt(end) != '"') {
        end += line.charAt(end) == '\\' ? 2 : 1;
      }
      end++;
    } else if (c == '[') {
      end = line.indexOf(']', start) + 1;
    } else {
      end = start;
      while (line.charAt(end) != ',' && line.charAt(end) != '}') {
        end++;
      }
    }
    return new int[] {start, end};
  }

  /** The peer id of {@code line}, read textually (works on lines that no longer parse). */
  static String peer(String line) {
    String quoted = value(line, "peer");
    return quoted.substring(1, quoted.length() - 1);
  }

  /** {@code line} re-signed by {@code key} over its (possibly altered) body. */
  static String resign(String line, PeerKeys key) {
    LedgerCodec.Split s = LedgerCodec.split(line);
    return LedgerCodec.line(s.body(), key.sign(s.signedBytes()));
  }

  /**
   * Replaces line {@code index} (0-based) by {@code replacement} re-signed by {@code signer}, then
   * re-chains and re-signs every later line with its peer's key: what an attacker holding every key can do.
   */
  static List<String> forge(List<String> lines, int index, String replacement, PeerKeys signer,
      Map<String, PeerKeys> keys) {
    List<String> out = new ArrayList<>(lines);
    Map<String, String> renamed = new HashMap<>();
    out.set(index, resign(replacement, signer));
    renamed.put(LedgerCodec.hash(lines.get(index)), LedgerCodec.hash(out.get(index)));
    for (int i = index + 1; i < out.size(); i++) {
      // Keep each line's original chain target (the previous line in a ring; the last aggregate for a
      // star client update), renamed to the forged hashes.
      String prev = value(out.get(i), "prev_hash").replace("\"", "");
      String l = set(out.get(i), "prev_hash", "\"" + renamed.getOrDefault(prev, prev) + "\"");
      String contributors = value(l, "contributors");
      for (Map.Entry<String, String> r : renamed.entrySet()) {
        contributors = contributors.replace(r.getKey(), r.getValue());
      }
      l = set(l, "contributors", contributors);
      out.set(i, resign(l, keys.get(peer(l))));
      renamed.put(LedgerCodec.hash(lines.get(i)), LedgerCodec.hash(out.get(i)));
    }
    return out;
  }
}
