package io.hdfl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserErrorHandlerTest {
  @TempDir Path dir;

  @Test
  void aFileSystemErrorSaysWhatIsWrongWithTheFileNotOnlyItsName() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    // what Files.createDirectories throws when the run folder is an existing file
    FileAlreadyExistsException exists =
        assertThrows(FileAlreadyExistsException.class, () -> Files.createDirectories(file));
    assertEquals(file + ": already exists", UserErrorHandler.userMessage(exists));
    assertEquals("d: not a directory", UserErrorHandler.userMessage(new NotDirectoryException("d")));
    assertEquals("m: Read-only file system",
        UserErrorHandler.userMessage(new FileSystemException("m", null, "Read-only file system")));
    assertEquals("a -> b: already exists",
        UserErrorHandler.userMessage(new FileAlreadyExistsException("a", "b", null)));
    assertEquals("x: no such file", UserErrorHandler.userMessage(new NoSuchFileException("x")));
    assertEquals("y: permission denied",
        UserErrorHandler.userMessage(new UncheckedIOException(new AccessDeniedException("y"))));
  }

  @Test
  void aBugIsNotAUserMistake() {
    assertNull(UserErrorHandler.userMessage(new IllegalStateException("broken invariant")));
    assertNull(UserErrorHandler.userMessage(new NullPointerException()));
  }
}
