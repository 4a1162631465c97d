package io.hdfl.sensors.signal.pi4j;

import com.pi4j.context.Context;
import com.pi4j.io.IO;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * Opening and releasing the Pi4J I/O of a device. An I/O created through a {@link Context} is
 * registered there under its id; releasing it with {@code context.shutdown(id)} closes it and frees
 * the id (and the bus address or GPIO line), so the device can be opened again. An I/O handed in by
 * the caller is only closed.
 */
final class Pi4jIo {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.signal");

  private Pi4jIo() {}

  /**
   * Creates an I/O, turning Pi4J's unchecked failures into one-line {@link IOException}s that name
   * the device and the plugin a device needs.
   */
  static <T> T create(String where, String plugin, Supplier<T> creator) throws IOException {
    try {
      return creator.get();
    } catch (RuntimeException e) {
      throw new IOException(where + ": cannot open (" + e.getMessage() + "); on a device the deployment must add "
          + plugin, e);
    }
  }

  /** Releases {@code io}: through {@code context} when it was created there, else by closing it. Never throws. */
  static void release(Context context, IO<?, ?, ?> io, String who) {
    try {
      if (context != null && !context.isShutdown() && context.registry().exists(io.id())) {
        context.shutdown(io.id());
      } else if (io instanceof AutoCloseable c) {
        c.close();
      }
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "hdfl signal: releasing " + who + " failed: " + e.getMessage());
    }
  }
}
