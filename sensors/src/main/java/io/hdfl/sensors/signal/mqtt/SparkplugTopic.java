package io.hdfl.sensors.signal.mqtt;

import java.util.Objects;
import org.eclipse.tahu.message.model.MessageType;

/**
 * A Sparkplug B topic, {@code spBv1.0/<group>/<type>/<edge node>[/<device>]}: node messages (NBIRTH,
 * NDEATH, NDATA, NCMD) have no device, device messages (DBIRTH, DDEATH, DDATA, DCMD) have one.
 *
 * @param device the device id, or null for a node message
 */
record SparkplugTopic(String group, MessageType type, String edgeNode, String device) {

  static final String NAMESPACE = "spBv1.0";

  SparkplugTopic {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(edgeNode, "edgeNode");
  }

  /** The topic text. */
  String topic() {
    return NAMESPACE + "/" + group + "/" + type.name() + "/" + edgeNode + (device == null ? "" : "/" + device);
  }

  /**
   * Parses a topic of a node or device message.
   *
   * @throws MalformedPayloadException naming what is wrong (wrong namespace, unknown message type,
   *     a device on a node message or none on a device message, empty ids)
   */
  static SparkplugTopic parse(String topic) throws MalformedPayloadException {
    String[] parts = topic.split("/", -1);
    if (parts.length < 4 || parts.length > 5 || !NAMESPACE.equals(parts[0])) {
      throw new MalformedPayloadException("topic " + ThrottledLog.printable(topic, 200) + " is not "
          + NAMESPACE + "/<group>/<type>/<edge node>[/<device>]");
    }
    MessageType type;
    try {
      type = MessageType.valueOf(parts[2]);
    } catch (IllegalArgumentException e) {
      throw new MalformedPayloadException("topic " + ThrottledLog.printable(topic, 200)
          + ": unknown Sparkplug message type " + ThrottledLog.printable(parts[2], 40));
    }
    boolean deviceType = type == MessageType.DBIRTH || type == MessageType.DDEATH || type == MessageType.DDATA
        || type == MessageType.DCMD;
    if (deviceType != (parts.length == 5)) {
      throw new MalformedPayloadException("topic " + ThrottledLog.printable(topic, 200) + ": " + type
          + (deviceType ? " needs a device id" : " cannot have a device id"));
    }
    for (int i = 1; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        throw new MalformedPayloadException("topic " + ThrottledLog.printable(topic, 200) + " has an empty id");
      }
    }
    return new SparkplugTopic(parts[1], type, parts[3], deviceType ? parts[4] : null);
  }

  /**
   * Checks a group, edge node or device id: non-empty, at most 255 characters, none of {@code / + #}.
   *
   * @return {@code id}
   */
  static String checkId(String what, String id) {
    Objects.requireNonNull(id, what);
    if (id.isEmpty() || id.length() > 255) {
      throw new IllegalArgumentException(what + " must be 1..255 characters, got " + ThrottledLog.printable(id, 40));
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '/' || c == '+' || c == '#' || Character.isISOControl(c)) {
        throw new IllegalArgumentException(what + " " + ThrottledLog.printable(id, 40)
            + " contains '/', '+', '#' or a control character");
      }
    }
    return id;
  }
}
