package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A handler that queues what it receives, for tests. */
final class Inbox implements MessageHandler {
  record Message(String topic, byte[] payload, boolean retained, String thread) {
    String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }
  }

  private final BlockingQueue<Message> queue = new LinkedBlockingQueue<>();

  @Override
  public void onMessage(String topic, byte[] payload, boolean retained) {
    queue.add(new Message(topic, payload, retained, Thread.currentThread().getName()));
  }

  /** The next message, failing after {@code timeoutMs}. */
  Message next(long timeoutMs) throws InterruptedException {
    Message m = queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
    assertNotNull(m, "no message within " + timeoutMs + " ms");
    return m;
  }

  Message poll(long timeoutMs) throws InterruptedException {
    return queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
  }

  void assertEmpty(long waitMs) throws InterruptedException {
    Message m = queue.poll(waitMs, TimeUnit.MILLISECONDS);
    assertNull(m, () -> "unexpected message on " + m.topic() + ": " + m.text());
  }

  int size() {
    return queue.size();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
