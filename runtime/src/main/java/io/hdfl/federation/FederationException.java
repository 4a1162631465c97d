package io.hdfl.federation;

/**
 * A federation could not complete for an operational reason (peers did not come online, no final
 * model within the time limit, ...): not a bug and not bad input, but a run that failed. The CLI
 * reports it as one line with exit code 1.
 */
public final class FederationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public FederationException(String message) {
    super(message);
  }
}
