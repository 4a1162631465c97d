package io.hdfl.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * One checkpoint: a kind, a few named text fields and an optional binary payload (a model frame),
 * written atomically ({@link AtomicFile}: temporary file, fsync, rename, directory fsync) so that a
 * reader sees the previous checkpoint or the new one, never a mix.
 *
 * <pre>
 *   "HDFLCKPT" | u8 version (1) | u32 n | n bytes of UTF-8 "key=value\n" lines, the first "kind=…"
 *              | u32 m | m payload bytes | u32 CRC-32C of everything before it        (big-endian)
 * </pre>
 *
 * <p>Torn writes cannot happen with the rename, but bit rot and edits can: reading checks the magic,
 * the version, every length against the file's real size and the checksum, and fails with a {@link
 * CheckpointFormatException} naming the file; a caller never silently starts afresh.
 */
public final class CheckpointFile {
  /** Largest checkpoint read (a model frame of up to 32 MiB plus ledger lines, with room). */
  public static final long MAX_BYTES = 128L << 20;
  private static final byte[] MAGIC = "HDFLCKPT".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 1;
  private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9.-]{0,63}");

  /** What a checkpoint file holds. */
  public static final class Content {
    private final Path file;
    private final Map<String, String> fields;
    private final byte[] payload;

    private Content(Path file, Map<String, String> fields, byte[] payload) {
      this.file = file;
      this.fields = Collections.unmodifiableMap(fields);
      this.payload = payload;
    }

    public Path file() {
      return file;
    }

    public String kind() {
      return fields.get("kind");
    }

    public Map<String, String> fields() {
      return fields;
    }

    /** The payload (empty if none). */
    public byte[] payload() {
      return payload.clone();
    }

    /** The field {@code key}; a checkpoint without it is refused. */
    public String text(String key) throws CheckpointFormatException {
      String v = fields.get(key);
      if (v == null) {
        throw bad(file, "no '" + key + "' field");
      }
      return v;
    }

    public long number(String key) throws CheckpointFormatException {
      String v = text(key);
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw bad(file, "'" + key + "' is not a whole number: " + LogText.quoted(v, '\''));
      }
    }

    public double real(String key) throws CheckpointFormatException {
      String v = text(key);
      try {
        double d = Double.parseDouble(v);
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw bad(file, "'" + key + "' is not a finite number: " + LogText.quoted(v, '\''));
    }

    public boolean flag(String key) throws CheckpointFormatException {
      String v = text(key);
      if (v.equals("true") || v.equals("false")) {
        return v.equals("true");
      }
      throw bad(file, "'" + key + "' is not true or false: " + LogText.quoted(v, '\''));
    }
  }

  private CheckpointFile() {}

  /**
   * Replaces {@code file} atomically with a checkpoint of {@code kind}, {@code fields} (in their
   * order; keys {@code [a-z][a-z0-9.-]*}, values without line breaks) and {@code payload}.
   */
  public static void write(Path file, String kind, Map<String, String> fields, byte[] payload) throws IOException {
    ByteArrayOutputStream header = new ByteArrayOutputStream();
    line(header, "kind", kind);
    for (Map.Entry<String, String> f : fields.entrySet()) {
      if (f.getKey().equals("kind")) {
        throw new IllegalArgumentException("'kind' is the checkpoint's kind, not a field");
      }
      line(header, f.getKey(), f.getValue());
    }
    byte[] head = header.toByteArray();
    byte[] body = payload == null ? new byte[0] : payload;
    // magic, version, header length, header, payload length; then the payload and the CRC-32C of all
    // of it, written straight from the caller's array (a model checkpoint is a megabyte: no copies)
    ByteBuffer prefix = ByteBuffer.allocate(MAGIC.length + 1 + 4 + head.length + 4);
    prefix.put(MAGIC).put((byte) VERSION).putInt(head.length).put(head).putInt(body.length);
    CRC32C crc = new CRC32C();
    crc.update(prefix.array());
    crc.update(body);
    byte[] check = ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
    AtomicFile.write(file, o -> {
      o.write(prefix.array());
      o.write(body);
      o.write(check);
    });
  }

  private static void line(ByteArrayOutputStream header, String key, String value) {
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException("not a checkpoint field name: '" + key + "'");
    }
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("checkpoint field '" + key + "' holds a line break");
    }
    header.writeBytes((key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads a checkpoint.
   *
   * @throws java.nio.file.NoSuchFileException if there is no such file
   * @throws CheckpointFormatException (one line naming the file) if it is not an intact checkpoint
   */
  public static Content read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw bad(file, "is " + size + " bytes, more than a checkpoint can be (" + MAX_BYTES + ")");
    }
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
    try {
      byte[] magic = new byte[MAGIC.length];
      b.get(magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw bad(file, "is not an hdfl checkpoint (bad magic)");
      }
      int version = b.get() & 0xFF;
      if (version != VERSION) {
        throw bad(file, "has checkpoint format version " + version + "; this hdfl reads version " + VERSION);
      }
      byte[] head = new byte[length(file, b, "header")];
      b.get(head);
      byte[] payload = new byte[length(file, b, "payload")];
      b.get(payload);
      int stored = b.getInt();
      if (b.hasRemaining()) {
        throw bad(file, "has " + b.remaining() + " bytes after its checksum");
      }
      CRC32C crc = new CRC32C();
      crc.update(b.array(), 0, b.position() - 4);
      if ((int) crc.getValue() != stored) {
        throw bad(file, "checksum mismatch (the file was damaged or edited)");
      }
      return new Content(file, fields(file, head), payload);
    } catch (BufferUnderflowException e) {
      throw bad(file, "is truncated (" + size + " bytes)");
    }
  }

  private static int length(Path file, ByteBuffer b, String what) throws CheckpointFormatException {
    int n = b.getInt();
    if (n < 0 || n > b.remaining()) {
      throw bad(file, "is truncated or damaged: its " + what + " claims " + Integer.toUnsignedString(n)
          + " bytes, " + b.remaining() + " remain");
    }
    return n;
  }

  private static Map<String, String> fields(Path file, byte[] head) throws CheckpointFormatException {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(head)).toString();
    } catch (CharacterCodingException e) {
      throw bad(file, "has a header that is not UTF-8");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    if (!text.endsWith("\n")) {
      throw bad(file, "has an unterminated or empty header");
    }
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length - 1; i++) { // the last is the empty rest after the final newline
      String l = lines[i];
      int eq = l.indexOf('=');
      String key = eq < 0 ? l : l.substring(0, eq);
      if (eq < 0 || !KEY.matcher(key).matches() || l.indexOf('\r') >= 0) {
        throw bad(file, "has a malformed header line " + LogText.quoted(l, '\''));
      }
      if (i == 0 && !key.equals("kind")) {
        throw bad(file, "does not start with its 'kind'");
      }
      if (fields.put(key, l.substring(eq + 1)) != null) {
        throw bad(file, "has the field '" + key + "' twice");
      }
    }
    return fields;
  }

  static CheckpointFormatException bad(Path file, String problem) {
    return new CheckpointFormatException(file + ": " + problem);
  }
}
