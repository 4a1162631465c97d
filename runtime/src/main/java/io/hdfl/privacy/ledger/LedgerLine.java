package io.hdfl.privacy.ledger;

/**
 * A stored ledger line (without its newline) and the entry parsed from it. The text is the
 * authority: the signature and the chain cover its exact bytes.
 */
public record LedgerLine(String text, LedgerEntry entry) {
  /** SHA-256 (hex) of {@link #text()}: the next entry's prev_hash, and how an aggregate names a contributor. */
  public String hash() {
    return LedgerCodec.hash(text);
  }
}
