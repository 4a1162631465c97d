package io.hdfl.sensors.signal.pi4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads the keys under one prefix of an untrusted properties file ({@code ads1115.0.} →
 * {@code ads1115.0.gain}, …). Unknown keys under the prefix are errors (a typo never falls back to a
 * default silently), and every error is one line naming the full key and the bad value.
 */
final class ConfigKeys {

  private final Properties properties;
  private final String prefix;

  /** @throws IllegalArgumentException if a key under {@code prefix} is not in {@code known} */
  ConfigKeys(Properties properties, String prefix, Set<String> known) {
    this(properties, prefix);
    Set<String> unknown = new TreeSet<>();
    for (String k : properties.stringPropertyNames()) {
      if (k.startsWith(prefix) && !known.contains(k.substring(prefix.length()))) {
        unknown.add(k);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown key(s) " + unknown + " (known under " + prefix + ": "
          + new TreeSet<>(known) + ")");
    }
  }

  /** Reads keys under {@code prefix} without checking for unknown ones (the caller has). */
  ConfigKeys(Properties properties, String prefix) {
    this.properties = properties;
    this.prefix = prefix;
  }

  /** Whether any key starts with {@code prefix}. */
  static boolean present(Properties properties, String prefix) {
    return properties.stringPropertyNames().stream().anyMatch(k -> k.startsWith(prefix));
  }

  /** The prefix without its trailing dot, naming the block in errors about several keys. */
  String block() {
    return prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix;
  }

  boolean has(String key) {
    return value(key) != null;
  }

  /** The stripped value, or null when the key is absent or blank. */
  String value(String key) {
    String v = properties.getProperty(prefix + key);
    return v == null || v.isBlank() ? null : v.strip();
  }

  String required(String key) {
    String v = value(key);
    if (v == null) {
      throw bad(key, "is required");
    }
    return v;
  }

  /** A whole number, decimal or {@code 0x} hexadecimal. */
  int integer(String key, int fallback) {
    String v = value(key);
    return v == null ? fallback : parseInt(key, v);
  }

  int requiredInteger(String key) {
    return parseInt(key, required(key));
  }

  double number(String key, double fallback) {
    String v = value(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw bad(key, "must be a number, got '" + v + "'");
    }
  }

  boolean flag(String key, boolean fallback) {
    String v = value(key);
    if (v == null) {
      return fallback;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "yes", "on" -> true;
      case "false", "no", "off" -> false;
      default -> throw bad(key, "must be true or false, got '" + v + "'");
    };
  }

  /** The value parsed by {@code parser}, whose {@link IllegalArgumentException} is prefixed with the key. */
  <T> T parsed(String key, Function<String, T> parser, T fallback) {
    String v = value(key);
    if (v == null) {
      return fallback;
    }
    try {
      return parser.apply(v);
    } catch (IllegalArgumentException e) {
      throw bad(key, e.getMessage());
    }
  }

  /** The {@code ;}-separated, non-blank items of a required key, each parsed. */
  <T> List<T> list(String key, Function<String, T> parser) {
    List<T> out = new ArrayList<>();
    int i = 0;
    for (String item : required(key).split(";", -1)) {
      i++;
      if (item.isBlank()) {
        continue;
      }
      try {
        out.add(parser.apply(item.strip()));
      } catch (IllegalArgumentException e) {
        throw bad(key, "item " + i + ": " + e.getMessage());
      }
    }
    if (out.isEmpty()) {
      throw bad(key, "lists nothing");
    }
    return out;
  }

  IllegalArgumentException bad(String key, String problem) {
    return new IllegalArgumentException(prefix + key + ": " + problem);
  }

  private int parseInt(String key, String v) {
    try {
      String t = v.toLowerCase(Locale.ROOT);
      return t.startsWith("0x") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw bad(key, "must be a whole number (decimal or 0x hex), got '" + v + "'");
    }
  }
}
