package io.hdfl.security;

import io.hdfl.io.LogText;
import io.hdfl.io.Sha256;
import io.hdfl.privacy.ledger.LedgerEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A federation's roster signed by its {@link FederationKey}: who is admitted (each member's Ed25519
 * signing key and X25519 key-agreement key) and who is revoked, with a version and the time it was
 * issued. Devices that pin the federation's public key ({@code roster.federation.key}) admit the
 * members of a roster that key signed, and refuse a roster older than one they have accepted ({@link
 * RosterHistory}). ASCII text, one item per line, canonical by construction (members and revocations
 * sorted, each once), so the signature covers exactly what is read:
 *
 * <pre>
 *   hdfl-roster v1
 *   federation plant-7
 *   version 3
 *   issued 2026-01-15T09:30:00Z
 *   member press-01 &lt;Ed25519 public key&gt; &lt;X25519 public key&gt;    (X.509 SubjectPublicKeyInfo, base64)
 *   revoked press-09
 *   signature &lt;Ed25519 signature of every byte above, base64&gt;
 * </pre>
 */
public final class SignedRoster {
  /** An admitted peer and its keys. */
  public record Member(String id, PublicKey signingKey, PublicKey agreementKey) {}

  static final String HEADER = "hdfl-roster v1";
  private static final long MAX_BYTES = 4L << 20;
  private static final int MAX_MEMBERS = 100_000;
  private static final DateTimeFormatter ISSUED = DateTimeFormatter.ISO_INSTANT;

  private final String federation;
  private final long version;
  private final Instant issued;
  private final Map<String, Member> members;
  private final Set<String> revoked;
  private final String sha256;

  private SignedRoster(String federation, long version, Instant issued, Map<String, Member> members,
      Set<String> revoked, String sha256) {
    this.federation = federation;
    this.version = version;
    this.issued = issued;
    this.members = Collections.unmodifiableMap(members);
    this.revoked = Collections.unmodifiableSet(revoked);
    this.sha256 = sha256;
  }

  public String federation() {
    return federation;
  }

  public long version() {
    return version;
  }

  public Instant issued() {
    return issued;
  }

  /** The admitted members by id, sorted (revoked ones included: {@link #revoked} overrides). */
  public Map<String, Member> members() {
    return members;
  }

  public Set<String> revoked() {
    return revoked;
  }

  /** SHA-256 (hex) of the whole signed document: tells two different rosters of one version apart. */
  public String sha256() {
    return sha256;
  }

  /**
   * Signs a roster with the federation key and returns the document's bytes.
   *
   * @throws IllegalArgumentException for an invalid federation or peer id, a negative version, or an
   *     id listed twice
   */
  public static byte[] sign(String federation, long version, Instant issued, List<Member> members,
      Set<String> revoked, FederationKey key) {
    requireId(federation, "federation");
    if (version < 0) {
      throw new IllegalArgumentException("a roster version must be >= 0, got " + version);
    }
    TreeMap<String, Member> sorted = new TreeMap<>();
    for (Member m : members) {
      requireId(m.id(), "peer");
      if (sorted.put(m.id(), m) != null) {
        throw new IllegalArgumentException("peer '" + m.id() + "' is listed twice");
      }
    }
    StringBuilder b = new StringBuilder();
    b.append(HEADER).append('\n');
    b.append("federation ").append(federation).append('\n');
    b.append("version ").append(version).append('\n');
    b.append("issued ").append(ISSUED.format(issued.truncatedTo(ChronoUnit.SECONDS))).append('\n');
    Base64.Encoder enc = Base64.getEncoder();
    for (Member m : sorted.values()) {
      b.append("member ").append(m.id()).append(' ').append(enc.encodeToString(ed25519(m.signingKey()).getEncoded()))
          .append(' ').append(enc.encodeToString(x25519(m.agreementKey()).getEncoded())).append('\n');
    }
    for (String id : new TreeSet<>(revoked)) {
      requireId(id, "revoked peer");
      b.append("revoked ").append(id).append('\n');
    }
    byte[] body = b.toString().getBytes(StandardCharsets.US_ASCII);
    String sig = "signature " + enc.encodeToString(key.sign(body)) + "\n";
    byte[] out = new byte[body.length + sig.length()];
    System.arraycopy(body, 0, out, 0, body.length);
    System.arraycopy(sig.getBytes(StandardCharsets.US_ASCII), 0, out, body.length, sig.length());
    return out;
  }

  /**
   * The peers whose public keys are in {@code source}, for signing: a directory holding {@code <id>.pub}
   * and {@code <id>.kx.pub} per peer (a roster directory, or what {@code hdfl peer --init} wrote), or one
   * {@code <id>.pub} file with its {@code <id>.kx.pub} beside it.
   *
   * @throws IllegalArgumentException (naming the file) if a key is missing or unreadable
   */
  public static List<Member> readMembers(Path source) throws IOException {
    List<Path> pubs = new ArrayList<>();
    if (Files.isDirectory(source)) {
      try (var files = Files.newDirectoryStream(source, "*" + io.hdfl.privacy.ledger.KeyDirectory.SUFFIX)) {
        for (Path f : files) {
          if (!f.getFileName().toString().endsWith(HopKeys.PUBLIC_SUFFIX)) {
            pubs.add(f);
          }
        }
      }
    } else if (Files.isRegularFile(source) && source.getFileName().toString().endsWith(".pub")) {
      pubs.add(source);
    } else {
      throw new IllegalArgumentException(source + ": neither a directory of public keys nor an <id>.pub file");
    }
    List<Member> out = new ArrayList<>();
    for (Path pub : pubs) {
      String name = pub.getFileName().toString();
      String id = name.substring(0, name.length() - io.hdfl.privacy.ledger.KeyDirectory.SUFFIX.length());
      if (!LedgerEntry.isValidId(id)) {
        throw new IllegalArgumentException(pub + ": the file name is not <peer id>.pub");
      }
      PublicKey signing = io.hdfl.privacy.ledger.KeyDirectory.open(pub.getParent()).find(id).orElseThrow();
      Path kx = pub.resolveSibling(id + HopKeys.PUBLIC_SUFFIX);
      if (!Files.isRegularFile(kx)) {
        throw new IllegalArgumentException(kx + ": missing (every member needs its X25519 key beside its " + name + ")");
      }
      out.add(new Member(id, signing, HopKeys.readPublic(kx, Files.readString(kx, StandardCharsets.ISO_8859_1))));
    }
    return out;
  }

  /**
   * Reads and checks a signed roster: the signature under {@code federationKey} first, then every line.
   *
   * @throws IllegalArgumentException (one line naming the file) if it is missing, not signed by that
   *     key (altered, or signed by another federation's key), or malformed
   */
  public static SignedRoster read(Path file, PublicKey federationKey) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(file + ": no such signed roster");
    }
    if (Files.size(file) > MAX_BYTES) {
      throw new IllegalArgumentException(file + ": too large for a roster (" + Files.size(file) + " bytes)");
    }
    return parse(file.toString(), Files.readAllBytes(file), federationKey);
  }

  /** As {@link #read}, from bytes; {@code source} names them in errors. */
  public static SignedRoster parse(String source, byte[] bytes, PublicKey federationKey) {
    int cut = bytes.length;
    if (cut > 0 && bytes[cut - 1] == '\n') {
      cut--;
    }
    int lastLine = cut;
    while (lastLine > 0 && bytes[lastLine - 1] != '\n') {
      lastLine--;
    }
    String sigLine = new String(bytes, lastLine, bytes.length - lastLine, StandardCharsets.ISO_8859_1);
    if (!sigLine.startsWith("signature ") || !sigLine.endsWith("\n")) {
      throw bad(source, "not a signed roster (its last line is not 'signature …')");
    }
    byte[] sig;
    try {
      sig = Base64.getDecoder().decode(sigLine.substring("signature ".length(), sigLine.length() - 1));
    } catch (IllegalArgumentException e) {
      throw bad(source, "its signature is not base64");
    }
    if (!Base64.getEncoder().encodeToString(sig).equals(sigLine.substring("signature ".length(), sigLine.length() - 1))) {
      throw bad(source, "its signature is not in canonical base64");
    }
    byte[] body = java.util.Arrays.copyOf(bytes, lastLine);
    if (!FederationKey.verify(federationKey, body, sig)) {
      throw bad(source, "the signature does not verify under the federation key (the roster was altered, or "
          + "signed with another key)");
    }
    return parseBody(source, body, Sha256.hex(bytes));
  }

  private static SignedRoster parseBody(String source, byte[] body, String sha256) {
    for (byte c : body) {
      if (c != '\n' && (c < 0x20 || c > 0x7E)) {
        throw bad(source, "holds a byte that is not printable ASCII");
      }
    }
    String[] lines = new String(body, StandardCharsets.US_ASCII).split("\n", -1);
    // the body ends with a newline, so the split ends with one empty string
    List<String> l = new ArrayList<>(List.of(lines).subList(0, lines.length - 1));
    if (l.size() < 4 || !l.get(0).equals(HEADER)) {
      throw bad(source, "line 1: expected '" + HEADER + "'");
    }
    String federation = field(source, l, 1, "federation");
    requireId(source, 2, federation);
    long version;
    try {
      version = Long.parseLong(field(source, l, 2, "version"));
    } catch (NumberFormatException e) {
      throw bad(source, "line 3: the version is not a whole number");
    }
    if (version < 0) {
      throw bad(source, "line 3: the version is negative");
    }
    Instant issued;
    String issuedText = field(source, l, 3, "issued");
    try {
      issued = Instant.from(ISSUED.parse(issuedText));
    } catch (DateTimeParseException e) {
      issued = null;
    }
    if (issued == null || !ISSUED.format(issued.truncatedTo(ChronoUnit.SECONDS)).equals(issuedText)) {
      throw bad(source, "line 4: the issue time is not a UTC instant in whole seconds (2026-01-15T09:30:00Z)");
    }
    Map<String, Member> members = new LinkedHashMap<>();
    Set<String> revoked = new TreeSet<>();
    String previous = null;
    int i = 4;
    for (; i < l.size() && l.get(i).startsWith("member "); i++) {
      String[] p = l.get(i).split(" ", -1);
      if (p.length != 4) {
        throw bad(source, "line " + (i + 1) + ": expected 'member <id> <Ed25519 key> <X25519 key>'");
      }
      requireId(source, i + 1, p[1]);
      if (previous != null && previous.compareTo(p[1]) >= 0) {
        throw bad(source, "line " + (i + 1) + ": members must be sorted by id, each once");
      }
      if (members.size() >= MAX_MEMBERS) {
        throw bad(source, "more than " + MAX_MEMBERS + " members");
      }
      previous = p[1];
      members.put(p[1], new Member(p[1], key(source, i + 1, p[2], "Ed25519"), key(source, i + 1, p[3], "X25519")));
    }
    previous = null;
    for (; i < l.size() && l.get(i).startsWith("revoked "); i++) {
      String id = l.get(i).substring("revoked ".length());
      requireId(source, i + 1, id);
      if (previous != null && previous.compareTo(id) >= 0) {
        throw bad(source, "line " + (i + 1) + ": revoked ids must be sorted, each once");
      }
      previous = id;
      revoked.add(id);
    }
    if (i != l.size()) {
      throw bad(source, "line " + (i + 1) + ": unexpected " + LogText.quoted(l.get(i), '\''));
    }
    return new SignedRoster(federation, version, issued, members, revoked, sha256);
  }

  private static String field(String source, List<String> lines, int index, String name) {
    String line = lines.get(index);
    if (!line.startsWith(name + " ")) {
      throw bad(source, "line " + (index + 1) + ": expected '" + name + " …'");
    }
    return line.substring(name.length() + 1);
  }

  private static PublicKey key(String source, int line, String base64, String algorithm) {
    PublicKey k;
    try {
      k = KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      throw bad(source, "line " + line + ": not an " + algorithm + " public key");
    }
    // one encoding per key, so that a roster has one signed form
    if (!Base64.getEncoder().encodeToString(k.getEncoded()).equals(base64)) {
      throw bad(source, "line " + line + ": the " + algorithm + " key is not in its canonical encoding");
    }
    return k;
  }

  private static PublicKey ed25519(PublicKey k) {
    return checked(k, "Ed25519");
  }

  private static PublicKey x25519(PublicKey k) {
    return checked(k, "X25519");
  }

  private static PublicKey checked(PublicKey k, String algorithm) {
    try {
      return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(k.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an " + algorithm + " public key: " + k.getAlgorithm());
    }
  }

  private static void requireId(String id, String what) {
    if (!LedgerEntry.isValidId(id)) {
      throw new IllegalArgumentException(what + " id must match " + LedgerEntry.ID + ", got " + LogText.quoted(id, '\''));
    }
  }

  private static void requireId(String source, int line, String id) {
    if (!LedgerEntry.isValidId(id)) {
      throw bad(source, "line " + line + ": not an id: " + LogText.quoted(id, '\''));
    }
  }

  private static IllegalArgumentException bad(String source, String problem) {
    return new IllegalArgumentException(source + ": " + problem);
  }
}
