package io.hdfl.sensors.window;

import io.hdfl.sensors.signal.Channel;
import io.hdfl.sensors.signal.SignalFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32C;

/**
 * The file a {@link Normalization} is saved to. Little-endian:
 * <pre>
 *   offset 0   4 bytes  magic "HDNS"
 *          4   u16      version = 1
 *          6   u16      flags: bit 0 frozen, bit 1 freezes after warm-up; other bits 0
 *          8   i64      warm-up samples, ≥ 0
 *         16   i64      samples counted, ≥ 0
 *         24   u32      channel count C, 1..4096
 *         28            C × { u8 name length (1..255), UTF-8 name, u8 unit length, UTF-8 unit }
 *          …            C × { f64 mean, f64 sum of squared deviations (≥ 0) }, all finite
 *          …   u32      CRC-32C of every byte above
 * </pre>
 * 90 channels take about 3 KB. Writing goes to a temporary file in the same directory, which is
 * fsynced and renamed over the target (atomically where the file system can), so a crash leaves the
 * old file or the new one, never a mix. Reading reads at most the largest valid size and names what
 * is wrong with a truncated, corrupt or foreign file.
 */
final class NormalizationFile {

  private static final System.Logger LOG = System.getLogger("io.hdfl.sensors.window");
  private static final byte[] MAGIC = {'H', 'D', 'N', 'S'};
  private static final int VERSION = 1;
  private static final int FROZEN = 1;
  private static final int FREEZES = 2;
  private static final int FIXED = 28;
  static final int MAX_BYTES = FIXED + Channel.MAX_CHANNELS * (2 + Channel.MAX_NAME_BYTES + Channel.MAX_UNIT_BYTES
      + 16) + 4;
  private static volatile boolean atomicMoveWarned;

  private NormalizationFile() {}

  static byte[] encode(Normalization n) {
    ChannelStatistics s = n.liveStatistics();
    List<Channel> channels = s.channels();
    ByteArrayOutputStream out = new ByteArrayOutputStream(FIXED + channels.size() * 40);
    ByteBuffer fixed = ByteBuffer.allocate(FIXED).order(ByteOrder.LITTLE_ENDIAN);
    int flags = (n.isFrozen() ? FROZEN : 0) | (n.freezesAfterWarmup() ? FREEZES : 0);
    fixed.put(MAGIC).putShort((short) VERSION).putShort((short) flags).putLong(n.warmupSamples()).putLong(s.count())
        .putInt(channels.size());
    out.writeBytes(fixed.array());
    for (Channel c : channels) {
      for (String str : new String[] {c.name(), c.unit()}) {
        byte[] b = str.getBytes(StandardCharsets.UTF_8);
        out.write(b.length);
        out.writeBytes(b);
      }
    }
    ByteBuffer values = ByteBuffer.allocate(16 * channels.size() + 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int c = 0; c < channels.size(); c++) {
      values.putDouble(s.mean(c)).putDouble(s.sumOfSquares(c));
    }
    out.write(values.array(), 0, 16 * channels.size());
    CRC32C crc = new CRC32C();
    crc.update(out.toByteArray());
    out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue()).array());
    return out.toByteArray();
  }

  static void write(Path file, Normalization n) throws IOException {
    byte[] bytes = encode(n);
    Path abs = file.toAbsolutePath();
    Path dir = abs.getParent();
    Path tmp = dir.resolve("." + abs.getFileName() + ".tmp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(true);
      }
      try {
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        if (!atomicMoveWarned) {
          atomicMoveWarned = true;
          LOG.log(System.Logger.Level.WARNING, "hdfl window: " + dir + " does not support atomic rename; replacing "
              + abs.getFileName() + " non-atomically (logged once)");
        }
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Directories cannot be opened or synced on some platforms; the rename itself is done.
    }
  }

  static Normalization read(Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    }
    if (bytes.length > MAX_BYTES) {
      throw new SignalFormatException(file + ": larger than any normalization file (" + MAX_BYTES + " bytes)");
    }
    return decode(bytes, file.toString());
  }

  static Normalization decode(byte[] bytes, String file) throws SignalFormatException {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    try {
      for (byte m : MAGIC) {
        if (b.get() != m) {
          throw new SignalFormatException(file + ": not a normalization file (bad magic bytes)");
        }
      }
      int version = Short.toUnsignedInt(b.getShort());
      if (version != VERSION) {
        throw new SignalFormatException(file + ": normalization file version " + version + " is not supported");
      }
      int flags = Short.toUnsignedInt(b.getShort());
      if ((flags & ~(FROZEN | FREEZES)) != 0) {
        throw new SignalFormatException(file + ": unknown flags 0x" + Integer.toHexString(flags));
      }
      long warmup = b.getLong();
      long count = b.getLong();
      long channels = Integer.toUnsignedLong(b.getInt());
      if (warmup < 0 || count < 0) {
        throw new SignalFormatException(file + ": negative warm-up or sample count (corrupt file)");
      }
      if (channels < 1 || channels > Channel.MAX_CHANNELS) {
        throw new SignalFormatException(file + ": channel count " + channels + " is outside 1.." + Channel.MAX_CHANNELS);
      }
      if (b.remaining() < channels * 18 + 4) {
        throw truncated(file, bytes.length);
      }
      List<Channel> list = new ArrayList<>((int) channels);
      for (int c = 0; c < channels; c++) {
        String name = string(b, file);
        String unit = string(b, file);
        try {
          list.add(new Channel(name, unit));
        } catch (IllegalArgumentException e) {
          throw new SignalFormatException(file + ": channel " + c + ": " + e.getMessage());
        }
      }
      double[] mean = new double[(int) channels];
      double[] m2 = new double[(int) channels];
      for (int c = 0; c < channels; c++) {
        mean[c] = b.getDouble();
        m2[c] = b.getDouble();
      }
      int end = b.position();
      int stored = b.getInt();
      if (b.hasRemaining()) {
        throw new SignalFormatException(file + ": " + b.remaining() + " unexpected bytes after the checksum");
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes, 0, end);
      if (stored != (int) crc.getValue()) {
        throw new SignalFormatException(file + ": checksum mismatch (corrupt file)");
      }
      ChannelStatistics stats = new ChannelStatistics(list, count, mean, m2);
      return new Normalization(stats, warmup, (flags & FREEZES) != 0, (flags & FROZEN) != 0);
    } catch (BufferUnderflowException e) {
      throw truncated(file, bytes.length);
    } catch (IllegalArgumentException e) {
      throw new SignalFormatException(file + ": " + e.getMessage());
    }
  }

  private static SignalFormatException truncated(String file, int length) {
    return new SignalFormatException(file + ": truncated normalization file (" + length + " bytes)");
  }

  private static String string(ByteBuffer b, String file) throws SignalFormatException {
    int len = Byte.toUnsignedInt(b.get());
    if (len > b.remaining()) {
      throw new BufferUnderflowException();
    }
    ByteBuffer slice = b.slice();
    slice.limit(len);
    b.position(b.position() + len);
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(slice).toString();
    } catch (CharacterCodingException e) {
      throw new SignalFormatException(file + ": a channel name or unit is not valid UTF-8");
    }
  }
}
