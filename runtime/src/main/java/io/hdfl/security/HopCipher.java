package io.hdfl.security;

import io.hdfl.privacy.ledger.LedgerEntry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * End-to-end encryption of one peer's hops: a frame for peer R is sealed so that only R can read it
 * and R knows who sealed it; neither the broker nor any other subscriber can read, alter or difference
 * the models in flight.
 *
 * <p>Keys: static-static X25519 between the sender's and the recipient's roster keys, through
 * HKDF-SHA256 (RFC 5869; salt {@code "hdfl-hop-v1"}, info = federation, sender, recipient and cipher,
 * so each direction of each pair in each federation has its own key). A successful open therefore
 * also authenticates the sender to the recipient. Agreements are cached per peer, so a hop costs one
 * AEAD pass and no public-key operation. There is no forward secrecy: whoever later steals a peer's
 * X25519 private key can read recorded hops to and from it (rotate keys by re-issuing the roster).
 *
 * <p>Sealed frame, all lengths checked before use:
 *
 * <pre>
 *   "HDFS" | u8 version (1) | u8 cipher ({@link HopAead#id}) | u8 n | sender (n ASCII bytes)
 *          | u8 m | recipient (m ASCII bytes) | nonce (12 random bytes) | AEAD(frame) with a 16-byte tag
 * </pre>
 *
 * <p>Everything before the ciphertext is the AEAD's associated data. A receiver keeps the nonces of
 * the last {@value #REPLAY_WINDOW} frames per sender and refuses a frame it has already opened.
 */
public final class HopCipher {
  static final byte[] MAGIC = "HDFS".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PLAIN_MAGIC = "HDFM".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int NONCE_BYTES = 12;
  static final int TAG_BYTES = 16;
  static final int REPLAY_WINDOW = 4096;
  private static final byte[] SALT = "hdfl-hop-v1".getBytes(StandardCharsets.US_ASCII);

  /** An opened frame and its authenticated sender. */
  public record Opened(String sender, byte[] frame) {}

  private final String federation;
  private final HopKeys own;
  private final Roster roster;
  private final HopAead aead;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, SecretKeySpec> keys = new ConcurrentHashMap<>();
  private final Map<String, LinkedHashSet<ByteBuffer>> seen = new HashMap<>();

  /**
   * @param own this peer's key-agreement pair (its id is the peer id)
   * @param aead the cipher this peer seals with (it opens either)
   */
  public HopCipher(String federation, HopKeys own, Roster roster, HopAead aead) {
    this.federation = federation;
    this.own = own;
    this.roster = roster;
    this.aead = aead;
  }

  public String peerId() {
    return own.peerId();
  }

  /** The roster this peer admits senders by. */
  public Roster roster() {
    return roster;
  }

  /** Whether {@code payload} starts like a sealed frame. */
  public static boolean isSealed(byte[] payload) {
    return startsWith(payload, MAGIC);
  }

  /**
   * Seals {@code frame} for {@code recipient}.
   *
   * @throws SealException ({@link SealException.Reason#NOT_ADMITTED}) if the recipient is not in the roster
   */
  public byte[] seal(String recipient, byte[] frame) throws SealException {
    byte[] sender = ascii(own.peerId());
    byte[] to = ascii(recipient);
    SecretKeySpec key = key(aead, own.peerId(), recipient, recipient);
    int headerLength = MAGIC.length + 3 + sender.length + 1 + to.length + NONCE_BYTES;
    byte[] out = new byte[headerLength + frame.length + TAG_BYTES];
    ByteBuffer b = ByteBuffer.wrap(out);
    b.put(MAGIC).put((byte) VERSION).put((byte) aead.id()).put((byte) sender.length).put(sender)
        .put((byte) to.length).put(to);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    b.put(nonce);
    try {
      Cipher c = cipher(aead, Cipher.ENCRYPT_MODE, key, nonce);
      c.updateAAD(out, 0, headerLength);
      int n = c.doFinal(frame, 0, frame.length, out, headerLength);
      if (n != frame.length + TAG_BYTES) {
        throw new IllegalStateException("AEAD produced " + n + " bytes for " + frame.length);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(aead.configName() + " sealing failed", e);
    }
    return out;
  }

  /**
   * Opens a frame sealed for this peer.
   *
   * @throws SealException with the reason if it is not one this peer accepts
   */
  public Opened open(byte[] sealed) throws SealException {
    if (startsWith(sealed, PLAIN_MAGIC)) {
      throw new SealException(SealException.Reason.UNENCRYPTED, "an unencrypted frame where hops must be encrypted");
    }
    ByteBuffer b = ByteBuffer.wrap(sealed);
    if (sealed.length < MAGIC.length + 5 + NONCE_BYTES + TAG_BYTES || !startsWith(sealed, MAGIC)) {
      throw malformed("not a sealed frame");
    }
    b.position(MAGIC.length);
    int version = b.get() & 0xff;
    if (version != VERSION) {
      throw malformed("sealed frame version " + version + " (this peer reads " + VERSION + ")");
    }
    HopAead cipher = HopAead.byId(b.get() & 0xff);
    if (cipher == null) {
      throw malformed("unknown cipher id " + (sealed[MAGIC.length + 1] & 0xff));
    }
    String sender = id(b, "sender");
    String recipient = id(b, "recipient");
    if (b.remaining() < NONCE_BYTES + TAG_BYTES) {
      throw malformed("truncated");
    }
    if (!recipient.equals(own.peerId())) {
      throw new SealException(SealException.Reason.NOT_FOR_THIS_PEER, "sealed for '" + recipient + "'");
    }
    byte[] nonce = new byte[NONCE_BYTES];
    b.get(nonce);
    int headerLength = b.position();
    SecretKeySpec key = key(cipher, sender, own.peerId(), sender);
    byte[] frame;
    try {
      Cipher c = cipher(cipher, Cipher.DECRYPT_MODE, key, nonce);
      c.updateAAD(sealed, 0, headerLength);
      frame = c.doFinal(sealed, headerLength, sealed.length - headerLength);
    } catch (AEADBadTagException e) {
      throw new SealException(SealException.Reason.AUTHENTICATION_FAILED,
          "does not authenticate as sealed by '" + sender + "' (altered, or sealed with another key)");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(cipher.configName() + " opening failed", e);
    }
    if (!firstSeen(sender, nonce)) {
      throw new SealException(SealException.Reason.REPLAYED, "a replay of a frame from '" + sender + "'");
    }
    return new Opened(sender, frame);
  }

  /** The X25519 shared secret of a private and a public key. */
  static byte[] agree(PrivateKey own, PublicKey other) {
    try {
      KeyAgreement ka = KeyAgreement.getInstance("XDH");
      ka.init(own);
      ka.doPhase(other, true);
      return ka.generateSecret();
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("X25519 agreement failed: " + e.getMessage(), e);
    }
  }

  private SecretKeySpec key(HopAead cipher, String from, String to, String other) throws SealException {
    String cacheKey = cipher.id() + "\u0000" + from + "\u0000" + to;
    SecretKeySpec known = keys.get(cacheKey);
    if (known != null) {
      return known;
    }
    PublicKey otherKey = roster.agreementKey(other);
    byte[] shared;
    try {
      shared = agree(own.privateKey(), otherKey);
    } catch (IllegalArgumentException e) {
      throw new SealException(SealException.Reason.NOT_ADMITTED, "no key agreement with '" + other + "': "
          + e.getMessage());
    }
    String info = "hdfl hop v1\u0000" + federation + "\u0000" + from + "\u0000" + to + "\u0000" + cipher.configName();
    SecretKeySpec key = new SecretKeySpec(hkdf(SALT, shared, info.getBytes(StandardCharsets.UTF_8)), cipher.keyAlgorithm());
    Arrays.fill(shared, (byte) 0);
    keys.put(cacheKey, key);
    return key;
  }

  /** HKDF-SHA256 (RFC 5869): the first 32 bytes of output. */
  static byte[] hkdf(byte[] salt, byte[] ikm, byte[] info) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(salt, "HmacSHA256"));
      byte[] prk = mac.doFinal(ikm);
      mac.init(new SecretKeySpec(prk, "HmacSHA256"));
      mac.update(info);
      mac.update((byte) 1);
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every JDK", e);
    }
  }

  private static Cipher cipher(HopAead a, int mode, SecretKeySpec key, byte[] nonce) throws GeneralSecurityException {
    Cipher c = Cipher.getInstance(a.transformation());
    if (a == HopAead.AES_256_GCM) {
      c.init(mode, key, new GCMParameterSpec(TAG_BYTES * 8, nonce));
    } else {
      c.init(mode, key, new IvParameterSpec(nonce));
    }
    return c;
  }

  private synchronized boolean firstSeen(String sender, byte[] nonce) {
    LinkedHashSet<ByteBuffer> window = seen.computeIfAbsent(sender, s -> new LinkedHashSet<>());
    if (!window.add(ByteBuffer.wrap(nonce))) {
      return false;
    }
    if (window.size() > REPLAY_WINDOW) {
      var it = window.iterator();
      it.next();
      it.remove();
    }
    return true;
  }

  private static String id(ByteBuffer b, String what) throws SealException {
    if (!b.hasRemaining()) {
      throw malformed("truncated before the " + what);
    }
    int n = b.get() & 0xff;
    if (n == 0 || n > b.remaining()) {
      throw malformed(what + " id of " + n + " bytes");
    }
    byte[] raw = new byte[n];
    b.get(raw);
    String id = new String(raw, StandardCharsets.ISO_8859_1);
    if (!LedgerEntry.isValidId(id)) {
      throw malformed(what + " id is not a peer id");
    }
    return id;
  }

  private static byte[] ascii(String id) {
    if (!LedgerEntry.isValidId(id)) {
      throw new IllegalArgumentException("not a peer id: '" + id + "'");
    }
    return id.getBytes(StandardCharsets.US_ASCII);
  }

  private static boolean startsWith(byte[] b, byte[] prefix) {
    return b.length >= prefix.length && Arrays.equals(b, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static SealException malformed(String why) {
    return new SealException(SealException.Reason.MALFORMED, why);
  }
}
