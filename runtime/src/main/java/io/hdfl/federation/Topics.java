package io.hdfl.federation;

import io.hdfl.privacy.ledger.LedgerEntry;

/** The MQTT topics of federation F (DESIGN §5). */
public final class Topics {
  private final String root;

  public Topics(String federation) {
    if (!LedgerEntry.isValidId(federation)) {
      throw new IllegalArgumentException("federation id must match " + LedgerEntry.ID + ", got '" + federation + "'");
    }
    this.root = "hdfl/" + federation + "/";
  }

  /** Retained announcement of a peer (and its last will "offline"). */
  public String peer(String id) {
    return root + "peers/" + id;
  }

  /**
   * Retained token of the process running as peer {@code id} (its start, then a random number),
   * published again after each reconnect: a second device with the same id shows itself there. Not
   * matched by {@link #peers()} (one level deeper).
   */
  public String peerInstance(String id) {
    return root + "peers/" + id + "/instance";
  }

  /** Every peer's announcement (a subscription filter). */
  public String peers() {
    return root + "peers/+";
  }

  /** The peer id of an announcement topic ({@link #peer}), or null if {@code topic} is not one. */
  public String announcedPeer(String topic) {
    String prefix = root + "peers/";
    if (!topic.startsWith(prefix)) {
      return null;
    }
    String id = topic.substring(prefix.length());
    return LedgerEntry.isValidId(id) ? id : null;
  }

  /**
   * Ring: the model {@code from} hands to peer {@code to} (QoS 1, dedup by step). The sender is part
   * of the topic so that a broker ACL can let each peer write only under its own id ({@code
   * deploy/mosquitto/acl}).
   */
  public String ringIn(String to, String from) {
    return root + "ring/" + to + "/in/" + from;
  }

  /** Ring: everything handed to peer {@code to} (a subscription filter). */
  public String ringInbox(String to) {
    return root + "ring/" + to + "/in/+";
  }

  /** Ring: the application acknowledgement {@code from} sends to peer {@code to}. */
  public String ringAck(String to, String from) {
    return root + "ring/" + to + "/ack/" + from;
  }

  /** Ring: every acknowledgement sent to peer {@code to} (a subscription filter). */
  public String ringAcks(String to) {
    return root + "ring/" + to + "/ack/+";
  }

  /** Star: the retained global model. */
  public String starGlobal() {
    return root + "star/global";
  }

  /** Star: the update of client {@code id}. */
  public String starUpdate(String id) {
    return root + "star/update/" + id;
  }

  /** Star: all client updates. */
  public String starUpdates() {
    return root + "star/update/+";
  }

  /** Round reports of peer {@code id} (JSON). */
  public String metrics(String id) {
    return root + "metrics/" + id;
  }

  /** All round reports. */
  public String allMetrics() {
    return root + "metrics/+";
  }

  /** Signed ledger lines as their authors publish them (ring peers; the star's aggregator). */
  public String ledger(String id) {
    return root + "ledger/" + id;
  }

  /** The retained final model. */
  public String finalModel() {
    return root + "model/final";
  }
}
