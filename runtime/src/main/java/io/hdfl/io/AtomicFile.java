package io.hdfl.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Crash-safe file writes. Whole-file writes make readers see either the old content or the complete
 * new content, never a partial file, even across a crash: write a temporary file beside the target,
 * fsync it, rename it over the target, fsync the directory. Temporary files get the default
 * permissions (so the umask applies, as for any new file) unlike {@link Files#createTempFile}'s
 * owner-only mode — except for {@link #createOwnerOnly}, which is private from creation on.
 */
public final class AtomicFile {
  /** The body that writes the content. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /** rw------- */
  public static final Set<PosixFilePermission> OWNER_ONLY =
      EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
  private static final System.Logger LOG = System.getLogger("io.hdfl.io");

  private AtomicFile() {}

  /** Replaces {@code target} with what {@code content} writes. The stream is buffered; do not close it. */
  public static void write(Path target, Content content) throws IOException {
    commit(target, content, true, new FileAttribute<?>[0]);
  }

  /**
   * Creates {@code target} (for a secret such as a private key) with permissions rw------- from the
   * moment it exists, where the file system has POSIX permissions; elsewhere logs once that the
   * permissions must be restricted by hand.
   *
   * @throws FileAlreadyExistsException if {@code target} exists: secrets are never overwritten
   */
  public static void createOwnerOnly(Path target, byte[] bytes) throws IOException {
    createOwnerOnly(target, out -> out.write(bytes));
  }

  /** {@link #createOwnerOnly(Path, byte[])} with what {@code content} writes. */
  static void createOwnerOnly(Path target, Content content) throws IOException {
    Path abs = target.toAbsolutePath();
    if (Files.exists(abs)) { // early, before anything is written; the link below decides
      throw new FileAlreadyExistsException(abs.toString(), null, "refusing to overwrite it");
    }
    commit(abs, content, false, ownerOnly(abs.getParent()));
  }

  /**
   * Refuses a private-key file that group or others may access, as ssh does (no check on a file
   * system without POSIX permissions).
   *
   * @throws IllegalArgumentException (one line naming the file and the fix) if it is too open
   */
  public static void requireOwnerOnly(Path file) throws IOException {
    Set<PosixFilePermission> perms;
    try {
      perms = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      return;
    }
    if (!OWNER_ONLY.containsAll(perms)) {
      throw new IllegalArgumentException(file + ": permissions " + PosixFilePermissions.toString(perms)
          + " are too open for a private key (run: chmod 600 " + file + ")");
    }
  }

  /**
   * Appends {@code bytes} to {@code file} (created if absent) and fsyncs it before returning. If the
   * write fails part way (a full disk, say), the file is cut back to its size before the call, so a
   * later append does not land after a torn record (an append-only log such as the ledger would
   * otherwise hold a broken line in its middle); a crash part way can still leave a torn tail, which
   * the readers of such files refuse or cut off.
   */
  public static void append(Path file, byte[] bytes) throws IOException {
    append(file, bytes, (ch, buf) -> {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    });
  }

  /** How {@link #append} writes its bytes (a test makes it fail part way). */
  @FunctionalInterface
  interface ChannelWrite {
    void write(FileChannel ch, ByteBuffer buf) throws IOException;
  }

  static void append(Path file, byte[] bytes, ChannelWrite write) throws IOException {
    Path abs = file.toAbsolutePath();
    boolean created = !Files.exists(abs);
    if (created && abs.getParent() != null) {
      Files.createDirectories(abs.getParent());
    }
    try (FileChannel ch = FileChannel.open(abs, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      long before = ch.size();
      try {
        write.write(ch, ByteBuffer.wrap(bytes));
        ch.force(true);
      } catch (IOException | RuntimeException e) {
        try {
          ch.truncate(before);
          ch.force(true);
        } catch (IOException cut) {
          e.addSuppressed(cut);
        }
        if (e instanceof IOException io) {
          throw naming(abs, io);
        }
        throw e;
      }
    }
    if (created) {
      syncDirectory(abs.getParent());
    }
  }

  /**
   * The bytes after the last newline of {@code file}, an append-only log of lines: empty if it ends
   * with a newline (or is empty), else the last line an interrupted append left without one (a power
   * cut in the middle of {@link #append}); null if that tail is longer than {@code maxLineBytes} (no
   * line of the log's writer is: left for the log's reader to report).
   */
  public static byte[] unterminatedTail(Path file, int maxLineBytes) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      long start = Math.max(0, size - maxLineBytes - 1);
      ByteBuffer end = ByteBuffer.allocate((int) (size - start));
      while (end.hasRemaining() && ch.read(end, start + end.position()) >= 0) {
        // reads the last maxLineBytes + 1 bytes at most
      }
      byte[] b = end.array();
      int i = b.length;
      while (i > 0 && b[i - 1] != '\n') {
        i--;
      }
      if (b.length - i > maxLineBytes) {
        return null;
      }
      return java.util.Arrays.copyOfRange(b, i, b.length);
    }
  }

  /** Cuts {@code file} to its first {@code size} bytes and fsyncs it (a torn tail off an append-only log). */
  public static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
      ch.force(true);
    }
  }

  /**
   * Deletes {@code file} if it exists and fsyncs its directory, so that the removal survives a crash
   * too; returns whether it existed.
   */
  public static boolean delete(Path file) throws IOException {
    Path abs = file.toAbsolutePath();
    boolean existed = Files.deleteIfExists(abs);
    if (existed) {
      syncDirectory(abs.getParent());
    }
    return existed;
  }

  private static void commit(Path target, Content content, boolean replace, FileAttribute<?>[] attrs)
      throws IOException {
    Path abs = target.toAbsolutePath();
    Path dir = abs.getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Path tmp = abs.resolveSibling(
        "." + abs.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          attrs)) {
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
        content.writeTo(out);
        out.flush();
        ch.force(true);
      } catch (IOException e) {
        throw naming(abs, e);
      }
      if (replace) {
        try {
          Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
        }
      } else {
        createOnly(tmp, abs);
      }
      syncDirectory(dir);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * {@code e} with the file it concerns named, where its message does not: a write refused for a full
   * disk says only "No space left on device", which left an operator to guess which file system. A
   * full one also says what to do, also where a {@code FileSystemException} (which names its file: the
   * temporary file beside it, when the file system had no room to create that) says it. Other
   * subclasses are kept as they are.
   */
  static IOException naming(Path file, IOException e) {
    if (e.getClass() == java.nio.file.FileSystemException.class) {
      var fs = (java.nio.file.FileSystemException) e;
      if (!full(fs.getReason())) {
        return e;
      }
      var told = new java.nio.file.FileSystemException(fs.getFile() != null ? fs.getFile() : file.toString(),
          fs.getOtherFile(), fs.getReason() + FULL);
      told.initCause(e);
      return told;
    }
    if (e.getClass() != IOException.class) {
      return e;
    }
    String why = e.getMessage() == null ? "an I/O error" : e.getMessage();
    return new IOException("cannot write " + file + ": " + why + (full(why) ? FULL : ""), e);
  }

  /** What {@link #naming} adds to the message of a write refused for a full file system. */
  private static final String FULL = " (its file system is full: free space there; what was written before is intact)";

  private static boolean full(String why) {
    return why != null && (why.contains("No space left on device") || why.contains("Disk quota exceeded"));
  }

  /**
   * Puts the written {@code tmp} in place as {@code target} only if no {@code target} exists: a hard
   * link, which the file system refuses atomically for an existing name (a rename replaces it, even
   * without REPLACE_EXISTING: two devices' {@code --init} at once could each write a key and the second
   * replace the first one's, whose public half was already printed). Where the file system has no hard
   * links, a move that checks first.
   */
  private static void createOnly(Path tmp, Path target) throws IOException {
    boolean linked;
    try {
      Files.createLink(target, tmp);
      linked = true;
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(target.toString(), null, "refusing to overwrite it");
    } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
      linked = false; // no hard links here (a FAT volume, say)
    }
    if (linked) {
      Files.delete(tmp); // before the directory's fsync: no second name of the secret survives a crash
    } else {
      Files.move(tmp, target); // fails if target exists (checked just before, not atomically)
    }
  }

  private static FileAttribute<?>[] ownerOnly(Path dir) {
    if (dir != null && dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)};
    }
    LOG.log(System.Logger.Level.WARNING, "hdfl: this file system has no POSIX permissions; "
        + "a private file gets the default access rights, restrict them yourself");
    return new FileAttribute<?>[0];
  }

  /**
   * Renames {@code from} to {@code to} atomically (same directory) and fsyncs the directory, so that
   * the rename survives a crash too.
   */
  public static void rename(Path from, Path to) throws IOException {
    Files.move(from, to, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    syncDirectory(to.toAbsolutePath().getParent());
  }

  /** Best effort: persists a rename or a new entry. Not every platform can open a directory for sync. */
  private static void syncDirectory(Path dir) {
    if (dir == null) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Directory fsync is not supported here (e.g. Windows); the file itself is already synced.
    }
  }
}
