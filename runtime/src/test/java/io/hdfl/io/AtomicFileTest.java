package io.hdfl.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
  @TempDir Path dir;

  @Test
  void writesAndReplacesAndCreatesParents() throws Exception {
    Path p = dir.resolve("a/b/file.bin");
    AtomicFile.write(p, out -> out.write(new byte[] {1, 2, 3}));
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(p));
    AtomicFile.write(p, out -> out.write(new byte[] {9}));
    assertArrayEquals(new byte[] {9}, Files.readAllBytes(p));
    try (var s = Files.list(p.getParent())) {
      assertEquals(1, s.count());
    }
  }

  /**
   * A secret is created, never put over a file: here another writer (a second `hdfl peer --init` of
   * the same device, say) creates the file while this one writes its own. The other's file stays, this
   * write fails naming it, and no temporary copy of the secret is left. Before, the rename put this
   * one over the other's (a rename replaces an existing name).
   */
  @Test
  void createOwnerOnlyNeverReplacesAFileCreatedWhileItWrites() throws Exception {
    Path key = dir.resolve("peer.key");
    java.nio.file.FileAlreadyExistsException e = assertThrows(java.nio.file.FileAlreadyExistsException.class,
        () -> AtomicFile.createOwnerOnly(key, out -> {
          out.write(new byte[] {1, 2, 3});
          Files.write(key, new byte[] {9}); // the other writer, between this one's check and its commit
        }));
    assertTrue(e.getMessage().contains("refusing to overwrite it"), e.getMessage());
    assertArrayEquals(new byte[] {9}, Files.readAllBytes(key));
    try (var s = Files.list(dir)) {
      assertEquals(1, s.count(), "no temporary file left");
    }
    Path fresh = dir.resolve("fresh.key");
    AtomicFile.createOwnerOnly(fresh, new byte[] {4, 5});
    assertArrayEquals(new byte[] {4, 5}, Files.readAllBytes(fresh));
    if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      assertEquals(AtomicFile.OWNER_ONLY, Files.getPosixFilePermissions(fresh));
    }
    try (var s = Files.list(dir)) {
      assertEquals(2, s.count(), "only the two keys");
    }
  }

  @Test
  void failureLeavesOldContentAndNoTemporaryFile() throws Exception {
    Path p = dir.resolve("f");
    Files.write(p, new byte[] {7});
    assertThrows(IOException.class, () -> AtomicFile.write(p, out -> {
      out.write(new byte[1000]);
      throw new IOException("disk full");
    }));
    assertArrayEquals(new byte[] {7}, Files.readAllBytes(p));
    try (var s = Files.list(dir)) {
      assertEquals(1, s.count());
    }
  }

  @Test
  void newFilesAreReadableByOthersUnlessUmaskSaysOtherwise() throws Exception {
    Path p = dir.resolve("m");
    AtomicFile.write(p, out -> out.write(1));
    Path reference = Files.createFile(dir.resolve("plain"));
    if (Files.getFileStore(p).supportsFileAttributeView("posix")) {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
      assertEquals(Files.getPosixFilePermissions(reference), perms, "same mode as any new file");
      assertTrue(perms.contains(PosixFilePermission.OWNER_READ));
    }
  }

  /** A write that fails part way (a full disk) leaves the file as it was, so the next append is not after a torn record. */
  @Test
  void anAppendThatFailsPartWayLeavesTheFileAsItWas() throws Exception {
    Path log = dir.resolve("ledger.jsonl");
    AtomicFile.append(log, "line 1\n".getBytes());
    IOException full = assertThrows(IOException.class, () -> AtomicFile.append(log, "line 2 is torn\n".getBytes(),
        (ch, buf) -> {
          buf.limit(4);
          ch.write(buf); // four bytes reach the file
          throw new IOException("No space left on device");
        }));
    assertEquals("cannot write " + log.toAbsolutePath() + ": No space left on device (its file system is full: free "
        + "space there; what was written before is intact)", full.getMessage());
    assertEquals("line 1\n", Files.readString(log), "cut back to its size before the append");
    AtomicFile.append(log, "line 2\n".getBytes());
    assertEquals("line 1\nline 2\n", Files.readString(log));
  }

  /** A replacement that fails (a full disk) names the file, leaves the old content and no temporary file. */
  @Test
  void aWriteThatFailsNamesTheFileAndLeavesTheOldOne() throws Exception {
    Path ckpt = dir.resolve("checkpoint").resolve("ring.ckpt");
    AtomicFile.write(ckpt, out -> out.write("old".getBytes()));
    IOException full = assertThrows(IOException.class, () -> AtomicFile.write(ckpt, out -> {
      out.write("new, cut short".getBytes());
      throw new IOException("No space left on device");
    }));
    assertTrue(full.getMessage().startsWith("cannot write " + ckpt.toAbsolutePath() + ": No space left on device (its "
        + "file system is full"), full.getMessage());
    assertEquals("old", Files.readString(ckpt));
    try (java.util.stream.Stream<Path> left = Files.list(ckpt.getParent())) {
      assertEquals(List.of(ckpt), left.toList(), "no temporary file left");
    }
    IOException other = assertThrows(IOException.class, () -> AtomicFile.write(ckpt, out -> {
      throw new java.nio.file.AccessDeniedException("/dev/sda1", null, "mounted read-only");
    }));
    assertTrue(other instanceof java.nio.file.AccessDeniedException, "a FileSystemException names its file: kept");
    // a file system with no room left to create the temporary file says so naming that file: told what to do too
    IOException noRoom = assertThrows(IOException.class, () -> AtomicFile.write(ckpt, out -> {
      throw new java.nio.file.FileSystemException(ckpt.getParent() + "/.ring.ckpt.1f.tmp", null,
          "No space left on device");
    }));
    assertEquals(java.nio.file.FileSystemException.class, noRoom.getClass());
    assertEquals(ckpt.getParent() + "/.ring.ckpt.1f.tmp: No space left on device (its file system is full: free space "
        + "there; what was written before is intact)", noRoom.getMessage());
    assertEquals("old", Files.readString(ckpt));
  }

  @Test
  void renameMovesTheFile() throws Exception {
    Path a = dir.resolve("ledger.jsonl");
    Path b = dir.resolve("ledger-kept.jsonl");
    AtomicFile.append(a, "x\n".getBytes());
    AtomicFile.rename(a, b);
    assertTrue(!Files.exists(a) && Files.readString(b).equals("x\n"));
  }
}
