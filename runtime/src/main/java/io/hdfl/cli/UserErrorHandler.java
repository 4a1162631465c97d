package io.hdfl.cli;

import io.hdfl.data.DatasetFormatException;
import io.hdfl.hd.ModelFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns exceptions into one line on stderr and an exit code: bad input (files, values) → 2, with
 * no stack trace; a run that could not complete (a federation timed out, a broker cannot be reached)
 * → 1; anything else is a bug → 70, with the stack trace only when {@code HDFL_DEBUG} is set.
 */
final class UserErrorHandler implements IExecutionExceptionHandler {
  static final int BAD_INPUT = 2;
  /** A check failed or a run could not complete (e.g. a federation timed out). */
  static final int CHECK_FAILED = 1;
  static final int INTERNAL = 70; // EX_SOFTWARE (sysexits.h): distinct from 1 = a check failed

  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
    var err = cmd.getErr();
    // a federation that timed out, a broker that cannot be reached: the run could not complete, and
    // the message says why (no bug, so no "internal error")
    if (ex instanceof io.hdfl.federation.FederationException || ex instanceof io.hdfl.transport.TransportException) {
      err.println("hdfl: error: " + ex.getMessage());
      return CHECK_FAILED;
    }
    String message = userMessage(ex);
    if (message != null) {
      err.println("hdfl: error: " + message);
      return BAD_INPUT;
    }
    err.println("hdfl: internal error: " + ex + " (set HDFL_DEBUG=1 for a stack trace)");
    if (System.getenv("HDFL_DEBUG") != null) {
      ex.printStackTrace(err);
    }
    return INTERNAL;
  }

  /** The one-line message for a user mistake, or null if {@code ex} is not one. */
  static String userMessage(Throwable ex) {
    if (ex instanceof UncheckedIOException && ex.getCause() != null) {
      ex = ex.getCause();
    }
    if (ex instanceof DatasetFormatException || ex instanceof ModelFormatException
        || ex instanceof IllegalArgumentException) {
      return ex.getMessage();
    }
    if (ex instanceof NoSuchFileException) {
      return ((NoSuchFileException) ex).getFile() + ": no such file";
    }
    if (ex instanceof AccessDeniedException) {
      return ((AccessDeniedException) ex).getFile() + ": permission denied";
    }
    if (ex instanceof FileSystemException fs && fs.getFile() != null) {
      // these name only the file in their message: say what is wrong with it
      String reason = fs.getReason() != null ? fs.getReason()
          : fs instanceof FileAlreadyExistsException ? "already exists"
          : fs instanceof NotDirectoryException ? "not a directory"
          : fs instanceof DirectoryNotEmptyException ? "directory not empty"
          : fs.getClass().getSimpleName();
      return fs.getFile() + (fs.getOtherFile() != null ? " -> " + fs.getOtherFile() : "") + ": " + reason;
    }
    if (ex instanceof IOException) {
      return ex.getMessage() == null ? ex.toString() : ex.getMessage();
    }
    return null;
  }
}
