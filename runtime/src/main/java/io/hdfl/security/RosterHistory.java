package io.hdfl.security;

import io.hdfl.io.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Rollback protection for signed rosters: a device records the newest roster it accepted (federation,
 * version, SHA-256) in its state directory and refuses an older one — say, one from before a peer was
 * revoked, replayed by whoever can write the device's configuration — and a different roster under a
 * version it already accepted.
 */
public final class RosterHistory {
  private RosterHistory() {}

  /**
   * Accepts {@code roster} if it is not older than the one recorded in {@code file} (then records it).
   *
   * @throws IllegalArgumentException (one line naming both files) for a rollback or a second roster
   *     with the same version, or an unreadable record
   */
  public static void accept(Path file, SignedRoster roster, Path rosterFile) throws IOException {
    if (Files.exists(file)) {
      String[] p = Files.readString(file, StandardCharsets.US_ASCII).strip().split(" ");
      long accepted;
      try {
        if (p.length != 3) {
          throw new NumberFormatException();
        }
        accepted = Long.parseLong(p[1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(file + ": not a roster record ('<federation> <version> <sha256>'); "
            + "delete it only if you trust " + rosterFile);
      }
      if (p[0].equals(roster.federation())) {
        if (roster.version() < accepted) {
          throw new IllegalArgumentException(rosterFile + ": roster version " + roster.version() + " is older than "
              + "version " + accepted + ", which this device accepted before (" + file + "); refusing a rollback");
        }
        if (roster.version() == accepted && !roster.sha256().equals(p[2])) {
          throw new IllegalArgumentException(rosterFile + ": a different roster with version " + accepted
              + " was accepted before (" + file + "); a new roster needs a new version");
        }
        if (roster.version() == accepted) {
          return;
        }
      }
    }
    String record = roster.federation() + " " + roster.version() + " " + roster.sha256() + "\n";
    AtomicFile.write(file, out -> out.write(record.getBytes(StandardCharsets.US_ASCII)));
  }
}
