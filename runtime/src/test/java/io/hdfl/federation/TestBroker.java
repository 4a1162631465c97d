package io.hdfl.federation;

import io.hdfl.transport.EmbeddedBroker;
import io.hdfl.transport.MosquittoProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * A real MQTT broker a test starts for itself and can take down under its connected clients: a
 * Mosquitto process (killed with SIGKILL) or the embedded Moquette (stopped).
 */
interface TestBroker extends AutoCloseable {
  enum Kind {
    MOSQUITTO,
    EMBEDDED;

    /** Starts a broker of this kind; a Mosquitto test is skipped where Mosquitto is not installed. */
    TestBroker start(Path dir) throws Exception {
      if (this == MOSQUITTO) {
        Assumptions.assumeTrue(MosquittoProcess.binary().isPresent(), "mosquitto is not installed");
        MosquittoProcess m = MosquittoProcess.startPlain(dir);
        return new TestBroker() {
          @Override
          public String uri() {
            return m.uri();
          }

          @Override
          public void down() throws InterruptedException {
            m.kill();
          }

          @Override
          public void up() throws Exception {
            m.restart();
          }

          @Override
          public void close() throws InterruptedException {
            m.close();
          }
        };
      }
      EmbeddedBroker b = new EmbeddedBroker().start();
      return new TestBroker() {
        @Override
        public String uri() {
          return b.uri();
        }

        @Override
        public void down() {
          b.stop();
        }

        @Override
        public void up() throws Exception {
          b.start();
        }

        @Override
        public void close() {
          // Moquette's graceful stop takes 2 s: let it finish in the background (the next test's
          // broker takes another free port)
          Thread stop = new Thread(b::close, "embedded-broker-stop");
          stop.setDaemon(true);
          stop.start();
        }
      };
    }
  }

  String uri();

  /** Takes the broker down at once: every client loses its connection. */
  void down() throws Exception;

  /** Brings it back on the same port (with no retained messages or sessions: none are persisted). */
  void up() throws Exception;

  /** Down for {@code millis}, then up again. */
  default void outage(long millis) throws Exception {
    down();
    Thread.sleep(millis);
    up();
  }
}
