package io.hdfl.codec;

import io.hdfl.codec.ModelEnvelope.Kind;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/** Envelopes and hand-crafted frames for the codec tests. */
final class Frames {
  private Frames() {}

  static float[] values(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) ((r.nextDouble() - 0.5) * Math.scalb(1.0, r.nextInt(-20, 20)));
    }
    return v;
  }

  static ModelEnvelope model(Kind kind, int classes, int dim) {
    return new ModelEnvelope(kind, "plant-7", "peer-3", 4, 31L, "cos", 617, -1234567890123L, dim, classes,
        12.5, 1247L, List.of("{\"step\":1}", "{\"step\":2,\"name\":\"Zoë ✓\"}"), new byte[] {1, 2, 3},
        values(classes * dim, 7));
  }

  static ModelEnvelope ack() {
    return new ModelEnvelope(Kind.ACK, "plant-7", "peer-4", 4, 31L, "", 0, 0, 0, 0, 0, 0, List.of(), null, null);
  }

  /** The fields of a valid 2×3 ring model's header, for tests to change one thing. */
  static final class H {
    Kind kind = Kind.RING_MODEL;
    String federation = "plant-7";
    String sender = "peer-3";
    int round = 4;
    long step = 31;
    String encoder = "cos";
    int features = 617;
    long basisSeed = 42;
    int dim = 3;
    int classes = 2;
    Dtype dtype = Dtype.FLOAT32;
    double presentVariance = 1.5;
    long samplesAbsorbed = 100;
    List<String> ledgerLines = List.of("{\"a\":1}");
    byte[] signature = new byte[0];

    EnvelopeHeader header() {
      return new EnvelopeHeader(kind, federation, sender, round, step, encoder, features, basisSeed, dim, classes,
          dtype, presentVariance, samplesAbsorbed, ledgerLines, signature);
    }

    byte[] bytes() {
      return header().toBytes();
    }

    /** A frame with this header and {@code tensor}, CRC correct. */
    byte[] frame(byte[] tensor) {
      return Frames.frame(bytes(), tensor);
    }

    /** A frame with this header and a tensor of exactly classes·dim copies of 0.25 in the dtype. */
    byte[] frame() {
      int n = classes * dim;
      if (dtype == Dtype.FLOAT32) {
        float[] v = new float[n];
        java.util.Arrays.fill(v, 0.25f);
        return frame(f32(v));
      }
      byte[] t = new byte[2 * n];
      for (int i = 0; i < n; i++) {
        int b = BFloat16.toBits(0.25f);
        t[2 * i] = (byte) b;
        t[2 * i + 1] = (byte) (b >>> 8);
      }
      return frame(t);
    }
  }

  /** Magic, version, header, tensor and a correct CRC. */
  static byte[] frame(int version, byte[] header, byte[] tensor) {
    ByteBuffer b = ByteBuffer.allocate(9 + header.length + tensor.length + 4).order(ByteOrder.LITTLE_ENDIAN);
    b.put(EnvelopeCodec.MAGIC).put((byte) version).putInt(header.length).put(header).put(tensor);
    return withCrc(b.array());
  }

  static byte[] frame(byte[] header, byte[] tensor) {
    return frame(EnvelopeCodec.VERSION, header, tensor);
  }

  /** Float32 little-endian bytes. */
  static byte[] f32(float... v) {
    ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float x : v) {
      b.putFloat(x);
    }
    return b.array();
  }

  /** Recomputes the trailing CRC-32C in place; returns {@code frame}. */
  static byte[] withCrc(byte[] frame) {
    CRC32C crc = new CRC32C();
    crc.update(frame, 0, frame.length - 4);
    ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).putInt(frame.length - 4, (int) crc.getValue());
    return frame;
  }

  /** Bytes allocated by this thread so far, or -1 if the JVM cannot tell (as in the data tests). */
  static long allocatedBytes() {
    var bean = ManagementFactory.getThreadMXBean();
    if (bean instanceof com.sun.management.ThreadMXBean hotspot
        && hotspot.isThreadAllocatedMemorySupported()
        && hotspot.isThreadAllocatedMemoryEnabled()) {
      return hotspot.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }
}
