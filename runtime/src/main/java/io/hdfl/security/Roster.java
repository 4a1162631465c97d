package io.hdfl.security;

import io.hdfl.privacy.ledger.KeyDirectory;
import io.hdfl.privacy.ledger.LedgerEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The peers admitted to a federation and their keys. A roster directory holds, per admitted peer,
 * its X25519 {@code <id>.kx.pub} (hops are encrypted to it) and its Ed25519 {@code <id>.pub}
 * (broadcast models and ledger entries are signed with it; the same files {@code hdfl ledger
 * verify --keys} reads); a {@code revoked} file lists ids (one per line, {@code #} comments)
 * that are refused although their keys are still there. Keys are pinned: whoever can write this
 * directory decides who is admitted, so it is configuration (e.g. /etc/hdfl/roster), not state.
 * Alternatively (or in addition) members come from a {@link SignedRoster} that the federation's key
 * signed, so that only the federation's operator decides admission.
 */
public final class Roster {
  /** Name of the revocation list in a roster directory. */
  public static final String REVOKED_FILE = "revoked";
  private static final long MAX_FILE_BYTES = 64 * 1024;

  private final Path dir;
  private final Map<String, PublicKey> keys;
  private final Map<String, PublicKey> signingKeys;
  private final KeyDirectory signingDir;
  private final Set<String> revoked;

  private Roster(Path dir, Map<String, PublicKey> keys, Map<String, PublicKey> signingKeys, KeyDirectory signingDir,
      Set<String> revoked) {
    this.dir = dir;
    this.keys = keys;
    this.signingKeys = signingKeys;
    this.signingDir = signingDir;
    this.revoked = revoked;
  }

  /** An in-memory roster of X25519 keys only (no broadcast can be verified against it). */
  public static Roster of(Map<String, PublicKey> agreementKeys) {
    return of(agreementKeys, Map.of());
  }

  /** An in-memory roster (a simulation's peers): X25519 and Ed25519 public keys by peer id. */
  public static Roster of(Map<String, PublicKey> agreementKeys, Map<String, PublicKey> signingKeys) {
    return new Roster(null, new HashMap<>(agreementKeys), Map.copyOf(signingKeys), null, Set.of());
  }

  /**
   * A roster directory. Keys are read when first needed.
   *
   * @throws NoSuchFileException if {@code dir} is not a directory
   * @throws IllegalArgumentException if its revocation list is unreadable as such
   */
  public static Roster open(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new NoSuchFileException(dir.toString(), null, "roster directory not found");
    }
    Set<String> revoked = new HashSet<>();
    Path list = dir.resolve(REVOKED_FILE);
    if (Files.isRegularFile(list)) {
      if (Files.size(list) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException(list + ": too large for a revocation list");
      }
      int n = 0;
      for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
        n++;
        String id = line.strip();
        if (id.isEmpty() || id.startsWith("#")) {
          continue;
        }
        if (!LedgerEntry.isValidId(id)) {
          throw new IllegalArgumentException(list + ":" + n + ": not a peer id: '" + id + "'");
        }
        revoked.add(id);
      }
    }
    return new Roster(dir, new HashMap<>(), Map.of(), KeyDirectory.open(dir), Set.copyOf(revoked));
  }

  /**
   * The members of a roster signed by the federation key, plus any peers pinned in {@code dir} (null
   * or not a directory: none). A peer revoked by either is refused. A peer both signed and pinned must
   * have the same keys in both.
   *
   * @throws IllegalArgumentException (naming the file) if a pinned key differs from the signed one, or
   *     the directory's revocation list is unreadable as such
   */
  public static Roster open(Path dir, SignedRoster signed) throws IOException {
    Roster pinned = dir != null && Files.isDirectory(dir) ? open(dir) : null;
    Map<String, PublicKey> agreement = new HashMap<>();
    Map<String, PublicKey> signing = new HashMap<>();
    for (SignedRoster.Member m : signed.members().values()) {
      if (pinned != null) {
        same(dir.resolve(m.id() + HopKeys.PUBLIC_SUFFIX), m.agreementKey(), () -> pinned.agreementKey(m.id()));
        same(dir.resolve(m.id() + KeyDirectory.SUFFIX), m.signingKey(), () -> pinned.signingKey(m.id()));
      }
      agreement.put(m.id(), m.agreementKey());
      signing.put(m.id(), m.signingKey());
    }
    Set<String> revoked = new HashSet<>(signed.revoked());
    if (pinned != null) {
      revoked.addAll(pinned.revoked);
    }
    return new Roster(pinned != null ? dir : null, agreement, Map.copyOf(signing),
        pinned != null ? pinned.signingDir : null, Set.copyOf(revoked));
  }

  /** How many files of a roster directory {@link #pinnedOnly} looks at, at most. */
  private static final int MAX_LISTED = 100_000;

  /**
   * The peers pinned in {@code dir} (an {@code <id>.kx.pub} or {@code <id>.pub} file) that {@code
   * signed} neither lists nor revokes and the directory does not revoke either: {@link #open(Path,
   * SignedRoster)} admits them too, which an operator who left them out of a newly signed roster may
   * not expect (to leave them out, revoke them or remove their files). Sorted; empty without a
   * directory.
   */
  public static java.util.SortedSet<String> pinnedOnly(Path dir, SignedRoster signed) throws IOException {
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    if (dir == null || !Files.isDirectory(dir)) {
      return out;
    }
    Set<String> revokedHere = open(dir).revoked;
    try (var files = Files.list(dir)) {
      files.limit(MAX_LISTED).map(f -> f.getFileName().toString()).forEach(name -> {
        String id = name.endsWith(HopKeys.PUBLIC_SUFFIX)
            ? name.substring(0, name.length() - HopKeys.PUBLIC_SUFFIX.length())
            : name.endsWith(KeyDirectory.SUFFIX) ? name.substring(0, name.length() - KeyDirectory.SUFFIX.length()) : null;
        if (id != null && LedgerEntry.isValidId(id) && !signed.members().containsKey(id)
            && !signed.revoked().contains(id) && !revokedHere.contains(id)) {
          out.add(id);
        }
      });
    }
    return out;
  }

  private interface KeyLookup {
    PublicKey get() throws SealException;
  }

  /** Refuses a pinned key file that disagrees with the signed roster (one absent or unreadable is skipped). */
  private static void same(Path file, PublicKey signed, KeyLookup pinned) {
    if (!Files.isRegularFile(file)) {
      return;
    }
    PublicKey k;
    try {
      k = pinned.get();
    } catch (SealException e) {
      return; // revoked in the directory, or unreadable: the signed key is used, the revocation applies
    }
    if (!java.util.Arrays.equals(k.getEncoded(), signed.getEncoded())) {
      throw new IllegalArgumentException(file + ": differs from the key the signed roster gives this peer; remove "
          + "the pinned file or have the roster signed with it");
    }
  }

  /** The ids this roster refuses although it may hold their keys. */
  public Set<String> revoked() {
    return revoked;
  }

  /**
   * The Ed25519 key broadcasts from {@code peerId} are signed with.
   *
   * @throws SealException ({@link SealException.Reason#NOT_ADMITTED}) if the peer is revoked or has no key here
   */
  public PublicKey signingKey(String peerId) throws SealException {
    if (revoked.contains(peerId)) {
      throw new SealException(SealException.Reason.NOT_ADMITTED,
          "peer " + quoted(peerId) + " is revoked in the roster");
    }
    PublicKey k = signingKeys.get(peerId);
    if (k != null) {
      return k;
    }
    if (signingDir != null && LedgerEntry.isValidId(peerId)) {
      try {
        var found = signingDir.find(peerId);
        if (found.isPresent()) {
          return found.get();
        }
      } catch (IOException | IllegalArgumentException e) {
        throw new SealException(SealException.Reason.NOT_ADMITTED, "peer " + quoted(peerId) + ": " + e.getMessage());
      }
    }
    throw new SealException(SealException.Reason.NOT_ADMITTED,
        "peer " + quoted(peerId) + " has no signing key in the roster");
  }

  /**
   * {@code id} for a log line, in single quotes: a peer id as it is, anything else (an id taken from
   * a received frame) with control characters, quotes, backslashes and non-ASCII escaped as
   * {@code \\uXXXX} and cut after 64 characters, so that it cannot forge or break log lines.
   */
  public static String quoted(String id) {
    return LedgerEntry.isValidId(id) ? "'" + id + "'" : io.hdfl.io.LogText.quoted(id, '\'');
  }


  /**
   * The X25519 key hops to or from {@code peerId} use.
   *
   * @throws SealException ({@link SealException.Reason#NOT_ADMITTED}) if the peer is revoked or has no key here
   */
  public synchronized PublicKey agreementKey(String peerId) throws SealException {
    if (revoked.contains(peerId)) {
      throw new SealException(SealException.Reason.NOT_ADMITTED, "peer '" + peerId + "' is revoked in the roster");
    }
    PublicKey known = keys.get(peerId);
    if (known != null) {
      return known;
    }
    if (dir == null || !LedgerEntry.isValidId(peerId)) {
      throw new SealException(SealException.Reason.NOT_ADMITTED, "peer '" + peerId + "' is not in the roster");
    }
    Path file = dir.resolve(peerId + HopKeys.PUBLIC_SUFFIX);
    try {
      if (!Files.isRegularFile(file)) {
        throw new SealException(SealException.Reason.NOT_ADMITTED, "peer '" + peerId + "' is not in the roster (no "
            + file + ")");
      }
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new SealException(SealException.Reason.NOT_ADMITTED, file + ": too large for a public key file");
      }
      PublicKey key = HopKeys.readPublic(file, Files.readString(file, StandardCharsets.ISO_8859_1));
      keys.put(peerId, key);
      return key;
    } catch (IOException | IllegalArgumentException e) {
      throw new SealException(SealException.Reason.NOT_ADMITTED, "peer '" + peerId + "': " + e.getMessage());
    }
  }
}
