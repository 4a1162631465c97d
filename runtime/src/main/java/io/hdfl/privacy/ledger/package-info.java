/**
 * The privacy ledger (DESIGN §4): an append-only, hash-chained, Ed25519-signed record of every noise
 * decision on a model, one JSON line per entry, and its verifier.
 *
 * <p>Writing: {@link io.hdfl.privacy.ledger.PrivacyLedger#append} turns a
 * {@link io.hdfl.privacy.ledger.NoiseRecord} into a {@link io.hdfl.privacy.ledger.LedgerEntry}, writes
 * its canonical text once ({@link io.hdfl.privacy.ledger.LedgerCodec}), signs those exact bytes with
 * the peer's {@link io.hdfl.privacy.ledger.PeerKeys} and chains the next entry to their SHA-256.
 * Reading and verifying never re-serialize, so a ledger verifies the same on every JDK.
 *
 * <p>Verifying: {@link io.hdfl.privacy.ledger.LedgerVerifier} streams a file and reports the first
 * entry that is malformed, breaks the chain, is not signed by its peer's key in the
 * {@link io.hdfl.privacy.ledger.KeyDirectory}, or does not follow its schedule's variance arithmetic
 * recomputed from {@link io.hdfl.privacy.PrivacyParameters}.
 * {@link io.hdfl.privacy.ledger.LedgerSimulation} builds correct ring and star ledgers.
 */
package io.hdfl.privacy.ledger;
