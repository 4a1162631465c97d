package io.hdfl.sensors.energy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A sysfs tree under a configurable root ({@code /sys} on a device, a fake tree in tests), read
 * through a replaceable reader so tests can simulate failures root cannot (permission bits do not
 * stop root).
 */
final class Sysfs {

  /** Reads one attribute file. */
  @FunctionalInterface
  interface Reader {
    String read(Path file) throws IOException;
  }

  static final Reader FILES = file -> Files.readString(file, StandardCharsets.US_ASCII);

  /** Orders {@code hwmon2} before {@code hwmon10} and {@code intel-rapl:2} before {@code intel-rapl:10}. */
  static final Comparator<Path> NATURAL = (a, b) -> compareNatural(a.getFileName().toString(), b.getFileName().toString());

  private final Path root;
  private final Reader reader;

  Sysfs(Path root, Reader reader) {
    this.root = Objects.requireNonNull(root, "root");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  Sysfs(Path root) {
    this(root, FILES);
  }

  /** {@code <root>/class/<name>}. */
  Path classDir(String name) {
    return root.resolve("class").resolve(name);
  }

  /** The entries of a directory in natural order; empty if it does not exist. */
  List<Path> list(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        out.add(p);
      }
    }
    out.sort(NATURAL);
    return out;
  }

  String readString(Path file) throws IOException {
    return reader.read(file).trim();
  }

  long readLong(Path file) throws IOException {
    String s = readString(file);
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IOException(file + ": not an integer: '" + s + "'", e);
    }
  }

  /** One line on why reading {@code file} failed, for reasons and error messages. */
  static String describe(Path file, IOException e) {
    if (e instanceof AccessDeniedException) {
      return file + ": permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return file + ": missing";
    }
    String msg = e.getMessage();
    return msg != null && msg.startsWith(file.toString()) ? msg : file + ": " + (msg == null ? e.toString() : msg);
  }

  static int compareNatural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (Character.isDigit(ca) && Character.isDigit(cb)) {
        int si = i;
        int sj = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
        String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
        int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
        if (c != 0) {
          return c;
        }
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
