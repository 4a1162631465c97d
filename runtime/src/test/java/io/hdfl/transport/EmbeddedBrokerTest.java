package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EmbeddedBrokerTest {
  @Test
  void startsQuicklyOnAFreeLoopbackPortAndWritesNoFiles() throws Exception {
    Path cwd = Path.of("").toAbsolutePath();
    long filesBefore;
    try (var s = Files.list(cwd)) {
      filesBefore = s.count();
    }
    EmbeddedBroker b = new EmbeddedBroker();
    assertThrows(IllegalStateException.class, b::uri);
    long t0 = System.nanoTime();
    b.start();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    try {
      assertTrue(ms < 5_000, "started in " + ms + " ms");
      assertTrue(b.isRunning());
      assertEquals("tcp://127.0.0.1:" + b.port(), b.uri());
      assertTrue(b.port() > 0);
      assertTrue(b.start() == b, "start is a no-op while running");
      try (MqttTransport t = MqttTransport.connect(MqttSettings.builder(b.uri()).build())) {
        assertTrue(t.isConnected());
      }
    } finally {
      // closed concurrently: Moquette's stop waits 2 s for Netty's graceful shutdown
      Thread stopper = new Thread(b::close);
      stopper.setDaemon(true);
      stopper.start();
    }
    try (var s = Files.list(cwd)) {
      assertEquals(filesBefore, s.count(), "no data/ or uuid files in the working directory");
    }
  }

  @Test
  void aTakenFixedPortIsAnIoException() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      EmbeddedBroker b = EmbeddedBroker.builder().port(taken.getLocalPort()).build();
      IOException e = assertThrows(IOException.class, b::start);
      assertTrue(e.getMessage().contains("cannot bind 127.0.0.1:" + taken.getLocalPort()), e.getMessage());
      assertFalse(b.isRunning());
    }
  }

  @Test
  void builderRejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> EmbeddedBroker.builder().port(70_000));
    assertThrows(IllegalArgumentException.class, () -> EmbeddedBroker.builder().maxMessageBytes(10));
  }
}
