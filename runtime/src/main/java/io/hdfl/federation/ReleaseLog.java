package io.hdfl.federation;

import io.hdfl.io.AtomicFile;
import io.hdfl.privacy.ledger.LedgerCodec;
import io.hdfl.privacy.ledger.LedgerFormatException;
import io.hdfl.privacy.ledger.LedgerReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A star client's own record of the updates it released: the signed ledger line of each update,
 * appended (and fsynced) once the update is committed and before it leaves the device. The
 * aggregator's ledger holds only the updates that reached it; an update lost on the way, or one that
 * came after the last round was averaged, was still noised and sent, and its draw is recorded here.
 * {@code hdfl ledger verify LEDGER --releases FILE} checks such a file against the federation's ledger
 * ({@link io.hdfl.privacy.ledger.ReleaseAudit}).
 *
 * <p>Recording a line equal to the file's last line does nothing, so a restart that records the
 * committed update again does not repeat it. Memory: the last line. A last line torn by a power cut in
 * the middle of its append is cut off when the file is opened: it can only be the committed update
 * that was not sent yet (the line is recorded after the commit and before the update leaves), which
 * the restarted client records again before it sends it.
 */
public final class ReleaseLog {
  /** The file name in a device's state directory. */
  public static final String FILE_NAME = "releases.jsonl";

  private final Path file;
  private String last;
  private long lines;

  private ReleaseLog(Path file) {
    this.file = file;
  }

  /**
   * Opens (or starts) the release record in {@code file}.
   *
   * @throws IllegalArgumentException (one line naming the file and line) if it is not such a record
   */
  public static ReleaseLog open(Path file) throws IOException {
    ReleaseLog log = new ReleaseLog(file);
    if (Files.exists(file)) {
      cutTornLastLine(file);
      try (LedgerReader r = LedgerReader.open(file)) {
        for (String text = r.next(); text != null; text = r.next()) {
          try {
            LedgerCodec.split(text);
            LedgerCodec.parse(text);
          } catch (LedgerFormatException e) {
            throw new IllegalArgumentException(file + ": " + new LedgerFormatException(r.lineNumber(), e.problem())
                .getMessage(), e);
          }
          log.last = text;
          log.lines++;
        }
      } catch (LedgerFormatException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
    }
    return log;
  }

  /** Cuts the file back to its last newline if its last line has none (an append torn by a power cut). */
  private static void cutTornLastLine(Path file) throws IOException {
    byte[] tail = AtomicFile.unterminatedTail(file, LedgerReader.MAX_LINE_BYTES);
    if (tail != null && tail.length > 0) { // longer than any line of ours: left for open to report
      System.getLogger("io.hdfl.federation").log(System.Logger.Level.WARNING, file + ": cut off a last line torn by"
          + " an interrupted append (" + tail.length + " bytes; the update it held is recorded again when resumed)");
      AtomicFile.truncate(file, Files.size(file) - tail.length);
    }
  }

  /** Appends {@code line} (a signed ledger line) unless it is already the last one; synced when this returns. */
  public synchronized void record(String line) throws IOException {
    if (line.equals(last)) {
      return;
    }
    if (lines >= LedgerReader.MAX_ENTRIES) {
      throw new IOException(file + " is full (" + LedgerReader.MAX_ENTRIES + " lines)");
    }
    AtomicFile.append(file, (line + "\n").getBytes(StandardCharsets.US_ASCII));
    last = line;
    lines++;
  }

  /** Lines recorded. */
  public synchronized long size() {
    return lines;
  }

  public Path file() {
    return file;
  }
}
