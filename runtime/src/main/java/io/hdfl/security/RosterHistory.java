package io.hdfl.security;

import io.hdfl.io.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rollback protection for signed rosters: a device records the newest roster it accepted of each
 * federation (one line each: federation, version, SHA-256) in its state directory and refuses an
 * older one — say, one from before a peer was revoked, replayed by whoever can write the device's
 * configuration — and a different roster under a version it already accepted. A device moved to
 * another federation and back keeps the first one's floor (until the twenty-second session the record
 * held one federation, and the move forgot it).
 */
public final class RosterHistory {
  /** The most a record may hold: a device is not moved between more federations than this fits. */
  private static final long MAX_BYTES = 64 * 1024;

  private RosterHistory() {}

  /** A federation's newest accepted roster: its version and SHA-256. */
  private record Accepted(long version, String sha256) {}

  /**
   * Accepts {@code roster} if it is not older than the one of its federation recorded in {@code file}
   * (then records it, keeping the other federations' records).
   *
   * @throws IllegalArgumentException (one line naming both files) for a rollback or a second roster
   *     with the same version, or an unreadable record
   */
  public static void accept(Path file, SignedRoster roster, Path rosterFile) throws IOException {
    Map<String, Accepted> records = read(file, rosterFile);
    if (!newer(records, file, roster, rosterFile)) {
      return;
    }
    records.put(roster.federation(), new Accepted(roster.version(), roster.sha256()));
    StringBuilder text = new StringBuilder();
    records.forEach((federation, a) -> text.append(federation).append(' ').append(a.version()).append(' ')
        .append(a.sha256()).append('\n'));
    AtomicFile.write(file, out -> out.write(text.toString().getBytes(StandardCharsets.US_ASCII)));
  }

  /**
   * Checks, as {@link #accept} does, that {@code roster} would be accepted, recording nothing (a
   * device's {@code --check}).
   *
   * @throws IllegalArgumentException as {@link #accept} does
   */
  public static void check(Path file, SignedRoster roster, Path rosterFile) throws IOException {
    newer(read(file, rosterFile), file, roster, rosterFile);
  }

  /** Whether {@code roster} is newer than its federation's record (false: the same one); refuses an older or another one. */
  private static boolean newer(Map<String, Accepted> records, Path file, SignedRoster roster, Path rosterFile) {
    Accepted before = records.get(roster.federation());
    if (before == null) {
      return true;
    }
    if (roster.version() < before.version()) {
      throw new IllegalArgumentException(rosterFile + ": roster version " + roster.version() + " is older than "
          + "version " + before.version() + ", which this device accepted before (" + file + "); refusing a rollback");
    }
    if (roster.version() == before.version() && !roster.sha256().equals(before.sha256())) {
      throw new IllegalArgumentException(rosterFile + ": a different roster with version " + before.version()
          + " was accepted before (" + file + "); a new roster needs a new version");
    }
    return roster.version() != before.version();
  }

  /** The records in {@code file} by federation (none if there is no file). */
  private static Map<String, Accepted> read(Path file, Path rosterFile) throws IOException {
    Map<String, Accepted> out = new TreeMap<>();
    if (!Files.exists(file)) {
      return out;
    }
    if (Files.size(file) > MAX_BYTES) {
      throw unreadable(file, rosterFile);
    }
    for (String line : Files.readString(file, StandardCharsets.US_ASCII).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String[] p = line.strip().split(" ");
      try {
        if (p.length != 3 || out.containsKey(p[0])) {
          throw new NumberFormatException();
        }
        out.put(p[0], new Accepted(Long.parseLong(p[1]), p[2]));
      } catch (NumberFormatException e) {
        throw unreadable(file, rosterFile);
      }
    }
    return out;
  }

  private static IllegalArgumentException unreadable(Path file, Path rosterFile) {
    return new IllegalArgumentException(file + ": not a roster record ('<federation> <version> <sha256>' a line); "
        + "delete it only if you trust " + rosterFile);
  }
}
