package io.hdfl.hd;

import io.hdfl.io.AtomicFile;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The versioned binary model file. All integers and floats little-endian:
 *
 * <pre>
 *   8 bytes  magic "HDFLMODL"
 *   u16      format version (1)
 *   u8       encoder (0 cos, 1 sign, 2 cos-bias)
 *   u8       similarity (0 cosine, 1 dot)
 *   i32      features f          (1 .. 2^20)
 *   i32      dimension D         (1 .. 2^20)
 *   i32      classes S           (1 .. 2^16, S·D ≤ 2^28)
 *   i64      basis seed
 *   S times: u16 n, n bytes UTF-8 class name (n ≤ 1024)
 *   S·D      f32 prototypes, row-major, all finite
 *   u32      CRC-32C of every preceding byte
 * </pre>
 *
 * The file's real length is checked against what the header implies before anything proportional
 * to the header's counts is allocated. Writes go to a temporary file that is synced and renamed.
 */
public final class ModelFile {
  /** The name of a federation's final model, in a simulation's run folder and in a device's state directory. */
  public static final String FINAL_MODEL_NAME = "final-model.hdfl";
  static final byte[] MAGIC = "HDFLMODL".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int MAX_CLASSES = 1 << 16;
  static final long MAX_VALUES = 1L << 28;
  static final int MAX_NAME_BYTES = 1024;
  private static final int FIXED_HEADER = 8 + 2 + 1 + 1 + 4 + 4 + 4 + 8;

  private ModelFile() {}

  /** Serializes a model. */
  public static byte[] toBytes(HdModel m) {
    EncoderSpec e = m.encoder();
    ClassPrototypes p = m.prototypes();
    List<byte[]> names = new ArrayList<>();
    int namesLen = 0;
    for (String n : m.classNames()) {
      byte[] b = n.getBytes(StandardCharsets.UTF_8);
      if (b.length > MAX_NAME_BYTES) {
        throw new IllegalArgumentException("class name longer than " + MAX_NAME_BYTES + " bytes: " + n);
      }
      names.add(b);
      namesLen += 2 + b.length;
    }
    long values = (long) p.classes() * p.dim();
    ByteBuffer buf = ByteBuffer.allocate((int) (FIXED_HEADER + namesLen + values * 4 + 4)).order(ByteOrder.LITTLE_ENDIAN);
    buf.put(MAGIC).putShort((short) VERSION).put((byte) e.kind().code()).put((byte) m.similarity().code());
    buf.putInt(e.features()).putInt(e.dim()).putInt(p.classes()).putLong(e.basisSeed());
    for (byte[] b : names) {
      buf.putShort((short) b.length).put(b);
    }
    buf.asFloatBuffer().put(p.vectors(), 0, (int) values);
    buf.position(buf.position() + (int) values * 4);
    CRC32C crc = new CRC32C();
    crc.update(buf.array(), 0, buf.position());
    buf.putInt((int) crc.getValue());
    return buf.array();
  }

  /** Parses a model; {@code source} names it in error messages. */
  public static HdModel fromBytes(byte[] bytes, String source) {
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (bytes.length < FIXED_HEADER + 4) {
        throw bad(source, "too short to be a model file (" + bytes.length + " bytes)");
      }
      byte[] magic = new byte[MAGIC.length];
      buf.get(magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw bad(source, "not an hdfl model file (bad magic)");
      }
      int version = Short.toUnsignedInt(buf.getShort());
      if (version != VERSION) {
        throw bad(source, "unsupported model format version " + version + " (this build reads " + VERSION + ")");
      }
      int encCode = Byte.toUnsignedInt(buf.get());
      int simCode = Byte.toUnsignedInt(buf.get());
      int features = buf.getInt();
      int dim = buf.getInt();
      int classes = buf.getInt();
      long seed = buf.getLong();
      EncoderKind kind;
      Similarity sim;
      try {
        kind = EncoderKind.fromCode(encCode);
        sim = Similarity.fromCode(simCode);
      } catch (IllegalArgumentException ex) {
        throw bad(source, ex.getMessage());
      }
      if (features < 1 || features > EncoderSpec.MAX_FEATURES) {
        throw bad(source, "feature count " + features + " outside [1, " + EncoderSpec.MAX_FEATURES + "]");
      }
      if (dim < 1 || dim > EncoderSpec.MAX_DIM) {
        throw bad(source, "dimension " + dim + " outside [1, " + EncoderSpec.MAX_DIM + "]");
      }
      if (classes < 1 || classes > MAX_CLASSES) {
        throw bad(source, "class count " + classes + " outside [1, " + MAX_CLASSES + "]");
      }
      long values = (long) classes * dim;
      if (values > MAX_VALUES) {
        throw bad(source, classes + " classes x D=" + dim + " exceeds the limit of " + MAX_VALUES + " values");
      }
      // Names are variable-length: bound them by what is really in the file before allocating.
      if (buf.remaining() < values * 4 + 4 + 2L * classes) {
        throw bad(source, "truncated: header promises " + classes + "x" + dim + " prototypes but only "
            + buf.remaining() + " bytes follow");
      }
      List<String> names = new ArrayList<>(classes);
      var decoder = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
      for (int c = 0; c < classes; c++) {
        int len = Short.toUnsignedInt(buf.getShort());
        if (len > MAX_NAME_BYTES || len > buf.remaining()) {
          throw bad(source, "class name " + c + " has bad length " + len);
        }
        ByteBuffer nameBytes = buf.slice().limit(len);
        try {
          names.add(decoder.decode(nameBytes).toString());
        } catch (CharacterCodingException ex) {
          throw bad(source, "class name " + c + " is not valid UTF-8");
        }
        buf.position(buf.position() + len);
      }
      long expectedEnd = buf.position() + values * 4 + 4;
      if (expectedEnd != bytes.length) {
        throw bad(source, (expectedEnd > bytes.length ? "truncated" : "trailing bytes") + ": expected "
            + expectedEnd + " bytes, file has " + bytes.length);
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes, 0, bytes.length - 4);
      int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      if ((int) crc.getValue() != stored) {
        throw bad(source, "checksum mismatch (file is corrupted)");
      }
      float[] v = new float[(int) values];
      buf.asFloatBuffer().get(v);
      for (int i = 0; i < v.length; i++) {
        if (!Float.isFinite(v[i])) {
          throw bad(source, "prototype of class " + (i / dim) + " has a non-finite value at component " + (i % dim));
        }
      }
      EncoderSpec spec;
      try {
        spec = new EncoderSpec(kind, features, dim, seed);
      } catch (IllegalArgumentException ex) {
        throw bad(source, ex.getMessage());
      }
      return new HdModel(spec, sim, ClassPrototypes.copyOf(classes, dim, v), names);
    } catch (BufferUnderflowException ex) {
      throw bad(source, "truncated header");
    }
  }

  /** Reads a model file. */
  public static HdModel read(Path path) {
    String name = path.toString();
    try {
      long size = Files.size(path);
      long max = FIXED_HEADER + (long) MAX_CLASSES * (2 + MAX_NAME_BYTES) + MAX_VALUES * 4 + 4;
      if (size > max) {
        throw bad(name, "file of " + size + " bytes is larger than any valid model");
      }
      return fromBytes(Files.readAllBytes(path), name);
    } catch (NoSuchFileException ex) {
      throw new ModelFormatException(name + ": no such file");
    } catch (IOException ex) {
      throw new ModelFormatException(name + ": cannot read (" + ex.getMessage() + ")", ex);
    }
  }

  /** Writes a model atomically (see {@link AtomicFile}). */
  public static void write(HdModel model, Path path) throws IOException {
    byte[] bytes = toBytes(model);
    AtomicFile.write(path, out -> out.write(bytes));
  }

  private static ModelFormatException bad(String source, String why) {
    return new ModelFormatException(source + ": " + why);
  }
}
