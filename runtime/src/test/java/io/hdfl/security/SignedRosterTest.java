package io.hdfl.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hdfl.codec.EnvelopeCodec;
import io.hdfl.codec.ModelEnvelope;
import io.hdfl.privacy.ledger.PeerKeys;
import io.hdfl.security.SealException.Reason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignedRosterTest {
  private static final FederationKey FED = FederationKey.generate();
  private static final Instant ISSUED = Instant.parse("2026-01-15T09:30:00Z");
  private static final HopKeys A = HopKeys.generate("press-01");
  private static final HopKeys B = HopKeys.generate("press-02");
  private static final HopKeys X = HopKeys.generate("intruder");
  private static final PeerKeys SA = PeerKeys.generate("press-01");
  private static final PeerKeys SB = PeerKeys.generate("press-02");

  @TempDir Path dir;

  private static List<SignedRoster.Member> members() {
    return List.of(new SignedRoster.Member("press-02", SB.publicKey(), B.publicKey()),
        new SignedRoster.Member("press-01", SA.publicKey(), A.publicKey()));
  }

  private static byte[] doc(long version, Set<String> revoked) {
    return SignedRoster.sign("plant-7", version, ISSUED, members(), revoked, FED);
  }

  @Test
  void aSignedRosterReadsBackExactly() {
    byte[] d = doc(3, Set.of("press-09"));
    String text = new String(d, StandardCharsets.US_ASCII);
    assertTrue(text.startsWith("hdfl-roster v1\nfederation plant-7\nversion 3\nissued 2026-01-15T09:30:00Z\n"
        + "member press-01 "), text);
    assertTrue(text.contains("\nrevoked press-09\nsignature "), text);
    SignedRoster r = SignedRoster.parse("r", d, FED.publicKey());
    assertEquals("plant-7", r.federation());
    assertEquals(3, r.version());
    assertEquals(ISSUED, r.issued());
    assertEquals(List.of("press-01", "press-02"), List.copyOf(r.members().keySet()), "sorted");
    assertArrayEquals(A.publicKey().getEncoded(), r.members().get("press-01").agreementKey().getEncoded());
    assertArrayEquals(SB.publicKey().getEncoded(), r.members().get("press-02").signingKey().getEncoded());
    assertEquals(Set.of("press-09"), r.revoked());
    assertArrayEquals(d, doc(3, Set.of("press-09")), "canonical: the same roster signs to the same bytes");
  }

  @Test
  void everyAlteredByteAndAnotherKeyAreRefused() {
    byte[] d = doc(3, Set.of());
    for (int i = 0; i < d.length; i++) {
      byte[] t = d.clone();
      t[i] ^= 0x01;
      int at = i;
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> SignedRoster.parse("r", t, FED.publicKey()), "byte " + at);
      assertTrue(e.getMessage().startsWith("r: "), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
    // a roster signed by another federation's key
    byte[] other = SignedRoster.sign("plant-7", 3, ISSUED, members(), Set.of(), FederationKey.generate());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> SignedRoster.parse("r", other, FED.publicKey()))
        .getMessage().contains("does not verify under the federation key"));
    // a member removed, signature kept
    String text = new String(d, StandardCharsets.US_ASCII);
    String cut = text.replaceAll("member press-02 [^\n]*\n", "");
    assertThrows(IllegalArgumentException.class,
        () -> SignedRoster.parse("r", cut.getBytes(StandardCharsets.US_ASCII), FED.publicKey()));
  }

  @Test
  void aDeviceRefusesARollbackAndASecondRosterOfTheSameVersion() throws Exception {
    Path record = dir.resolve("roster.accepted");
    Path file = dir.resolve("roster.signed");
    SignedRoster v3 = SignedRoster.parse("r", doc(3, Set.of()), FED.publicKey());
    RosterHistory.accept(record, v3, file);
    RosterHistory.accept(record, v3, file); // the same roster again: fine
    SignedRoster v4 = SignedRoster.parse("r", doc(4, Set.of("press-02")), FED.publicKey());
    RosterHistory.accept(record, v4, file);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RosterHistory.accept(record, v3, file));
    assertEquals(file + ": roster version 3 is older than version 4, which this device accepted before (" + record
        + "); refusing a rollback", e.getMessage());
    SignedRoster otherV4 = SignedRoster.parse("r", doc(4, Set.of()), FED.publicKey());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RosterHistory.accept(record, otherV4, file))
        .getMessage().contains("a different roster with version 4 was accepted before"));
    // a device's --check refuses as accepting does, and records nothing
    String recorded = Files.readString(record);
    assertEquals(e.getMessage(), assertThrows(IllegalArgumentException.class,
        () -> RosterHistory.check(record, v3, file)).getMessage());
    SignedRoster v5 = SignedRoster.parse("r", doc(5, Set.of("press-02")), FED.publicKey());
    RosterHistory.check(record, v5, file);
    assertEquals(recorded, Files.readString(record), "a check accepts nothing");
    RosterHistory.check(dir.resolve("none"), v3, file);
    assertFalse(Files.exists(dir.resolve("none")));
  }

  /**
   * A device moved to another federation and back keeps the first one's floor: the record holds one
   * line per federation (before, the second federation's roster replaced the first's record, and an
   * older roster of the first was accepted on the way back). A record written by an older hdfl (one
   * line) reads as before; a damaged one is refused.
   */
  @Test
  void aDeviceMovedToAnotherFederationAndBackKeepsTheFirstOnesFloor() throws Exception {
    Path record = dir.resolve("roster.accepted");
    Path file = dir.resolve("roster.signed");
    RosterHistory.accept(record, SignedRoster.parse("r", doc(4, Set.of("press-02")), FED.publicKey()), file);
    SignedRoster other = SignedRoster.parse("r", SignedRoster.sign("plant-9", 1, ISSUED, members(), Set.of(), FED),
        FED.publicKey());
    RosterHistory.accept(record, other, file);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RosterHistory.accept(record, SignedRoster.parse("r", doc(3, Set.of()), FED.publicKey()), file));
    assertTrue(e.getMessage().contains("roster version 3 is older than version 4"), e.getMessage());
    assertEquals(2, Files.readAllLines(record).size(), Files.readString(record));
    RosterHistory.accept(record, other, file); // plant-9's own again: fine
    Files.writeString(record, "plant-7 4 " + "ab".repeat(32) + "\nplant-7 5 " + "cd".repeat(32) + "\n");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> RosterHistory.accept(record, other, file))
        .getMessage().contains("not a roster record"), "a federation twice");
  }

  @Test
  void membersAreAdmittedAndUnknownRevokedOrMismatchedSendersRefused() throws Exception {
    Roster roster = Roster.open(null, SignedRoster.parse("r", doc(1, Set.of("press-02")), FED.publicKey()));
    HopCipher a = new HopCipher("plant-7", A, roster, HopAead.AES_256_GCM);
    byte[] frame = EnvelopeCodec.encode(new ModelEnvelope(ModelEnvelope.Kind.ACK, "plant-7", "press-01", 1, 1, "cos", 3,
        42, 8, 2, 0, 0, List.of(), null, null));
    // the roster admits press-01; it refuses press-02 (revoked) and anyone it does not list
    assertEquals(Reason.NOT_ADMITTED, assertThrows(SealException.class, () -> a.seal("press-02", frame)).reason());
    assertEquals(Reason.NOT_ADMITTED, assertThrows(SealException.class, () -> a.seal("intruder", frame)).reason());
    Roster all = Roster.of(java.util.Map.of("press-01", A.publicKey(), "intruder", X.publicKey()));
    byte[] fromIntruder = new HopCipher("plant-7", X, all, HopAead.AES_256_GCM).seal("press-01", frame);
    assertEquals(Reason.NOT_ADMITTED, assertThrows(SealException.class, () -> a.open(fromIntruder)).reason());
    // a sender claiming a member's id with a key other than the signed one: authentication fails
    HopKeys fake = HopKeys.generate("press-01");
    Roster forged = Roster.of(java.util.Map.of("press-01", A.publicKey()));
    byte[] mismatched = new HopCipher("plant-7", fake, forged, HopAead.AES_256_GCM).seal("press-01", frame);
    assertEquals(Reason.AUTHENTICATION_FAILED, assertThrows(SealException.class, () -> a.open(mismatched)).reason());
    // and a frame press-01 sealed for itself opens: the member is admitted by the signed roster alone
    assertEquals("press-01", a.open(a.seal("press-01", frame)).sender());
    assertArrayEquals(SA.publicKey().getEncoded(), roster.signingKey("press-01").getEncoded());
    assertEquals(Reason.NOT_ADMITTED, assertThrows(SealException.class, () -> roster.signingKey("press-02")).reason());
  }

  @Test
  void pinnedFilesStillWorkAndMustAgreeWithTheSignedRoster() throws Exception {
    Path pinned = Files.createDirectories(dir.resolve("roster"));
    X.publish(pinned); // intruder.kx.pub: pinned by hand on this device
    Roster r = Roster.open(pinned, SignedRoster.parse("r", doc(1, Set.of()), FED.publicKey()));
    assertArrayEquals(X.publicKey().getEncoded(), r.agreementKey("intruder").getEncoded(), "pinned");
    // told at start: the signed roster does not list it, yet it is admitted
    SignedRoster version1 = SignedRoster.parse("r", doc(1, Set.of()), FED.publicKey());
    A.publish(pinned); // a member pinned too: not one to warn about
    Files.writeString(pinned.resolve("notes.txt"), "not a key");
    assertEquals(java.util.List.of("intruder"), java.util.List.copyOf(Roster.pinnedOnly(pinned, version1)));
    assertEquals(Set.of(), Roster.pinnedOnly(pinned, SignedRoster.parse("r", doc(2, Set.of("intruder")),
        FED.publicKey())), "revoked by the signed roster");
    assertEquals(Set.of(), Roster.pinnedOnly(null, version1));
    assertArrayEquals(B.publicKey().getEncoded(), r.agreementKey("press-02").getEncoded(), "signed");
    Files.writeString(pinned.resolve(Roster.REVOKED_FILE), "press-01\nintruder\n");
    assertEquals(Set.of(), Roster.pinnedOnly(pinned, version1), "revoked in the directory");
    Roster revoked = Roster.open(pinned, SignedRoster.parse("r", doc(1, Set.of()), FED.publicKey()));
    assertEquals(Reason.NOT_ADMITTED, assertThrows(SealException.class, () -> revoked.agreementKey("press-01")).reason());
    // a pinned key that differs from the signed one for the same peer is a configuration error
    HopKeys other = HopKeys.generate("press-02");
    other.publish(pinned);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Roster.open(pinned, SignedRoster.parse("r", doc(1, Set.of()), FED.publicKey())));
    assertTrue(e.getMessage().startsWith(pinned.resolve("press-02.kx.pub") + ": differs from the key the signed roster"),
        e.getMessage());
  }
}
