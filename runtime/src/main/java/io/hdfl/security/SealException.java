package io.hdfl.security;

/** A sealed frame that was not accepted, with the reason a peer logs. */
public final class SealException extends Exception {
  /** Why a frame was rejected. */
  public enum Reason {
    /** Not a sealed frame: bad magic, version, cipher, lengths or ids. */
    MALFORMED,
    /** A plain (unencrypted) envelope where encryption is required. */
    UNENCRYPTED,
    /** Sealed for another peer. */
    NOT_FOR_THIS_PEER,
    /** The sender is not in the roster, or revoked. */
    NOT_ADMITTED,
    /** The tag does not verify: altered, or not sealed by the named sender. */
    AUTHENTICATION_FAILED,
    /** The same sealed frame was already accepted. */
    REPLAYED,
    /** A broadcast model without a valid signature of an admitted sender. */
    BAD_SIGNATURE
  }

  private final Reason reason;

  public SealException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
