package io.hdfl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The loopback broker's subscription index against the definition: after any sequence of
 * subscriptions, replacements, unsubscriptions and reconnects, a publish reaches exactly the
 * subscriptions whose filter {@link TopicFilter#matches} its topic.
 */
class LoopbackBrokerTest {
  private static final String[] TOPIC_LEVELS = {"a", "b", "", "$s"};
  private static final String[] FILTER_LEVELS = {"a", "b", "", "+", "$s"};

  private static String randomTopic(SplittableRandom r) {
    int levels = 1 + r.nextInt(4);
    StringBuilder t = new StringBuilder();
    for (int i = 0; i < levels; i++) {
      if (i > 0) {
        t.append('/');
      }
      // "$s" only first, as a broker's system topics; empty levels ("a//b", "/a") included
      t.append(TOPIC_LEVELS[r.nextInt(i == 0 ? 4 : 3)]);
    }
    return t.length() == 0 ? "a" : t.toString(); // a topic of one empty level is not a topic
  }

  private static String randomFilter(SplittableRandom r) {
    int levels = 1 + r.nextInt(4);
    StringBuilder f = new StringBuilder();
    for (int i = 0; i < levels; i++) {
      if (i > 0) {
        f.append('/');
      }
      if (i == levels - 1 && r.nextInt(4) == 0) {
        f.append('#');
      } else {
        f.append(FILTER_LEVELS[r.nextInt(i == 0 ? 5 : 4)]);
      }
    }
    return f.length() == 0 ? "+" : f.toString();
  }

  @Test
  void everyPublishReachesExactlyTheMatchingSubscriptions() throws Exception {
    SplittableRandom r = new SplittableRandom(2026);
    LoopbackBroker broker = new LoopbackBroker();
    int clients = 6;
    List<LoopbackTransport> transports = new ArrayList<>();
    List<Map<String, Inbox>> model = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      transports.add(broker.connect("c" + c));
      model.add(new LinkedHashMap<>());
    }
    List<Inbox> all = new ArrayList<>();
    long[] received = new long[clients];
    int published = 0;
    int deliveries = 0;
    for (int op = 0; op < 600; op++) {
      int c = r.nextInt(clients);
      int kind = r.nextInt(10);
      if (kind < 3) { // subscribe, perhaps replacing this client's subscription of the same filter
        String filter = randomFilter(r);
        Inbox inbox = new Inbox();
        all.add(inbox);
        transports.get(c).subscribe(filter, 1, inbox);
        model.get(c).put(filter, inbox);
      } else if (kind == 3 && !model.get(c).isEmpty()) {
        String filter = new ArrayList<>(model.get(c).keySet()).get(r.nextInt(model.get(c).size()));
        transports.get(c).unsubscribe(filter);
        model.get(c).remove(filter);
      } else if (kind == 4 && r.nextInt(4) == 0) { // reconnect: a clean session keeps no subscriptions
        if (r.nextBoolean()) {
          transports.get(c).close();
        }
        transports.set(c, broker.connect("c" + c)); // a takeover closes the old one
        model.get(c).clear();
        received[c] = 0;
      } else {
        String topic = randomTopic(r);
        String payload = "m" + published++;
        transports.get(r.nextInt(clients)).publish(topic, Inbox.utf8(payload), 1, false);
        for (int to = 0; to < clients; to++) {
          boolean matched = false;
          for (Map.Entry<String, Inbox> e : model.get(to).entrySet()) {
            if (TopicFilter.matches(e.getKey(), topic)) {
              Inbox.Message m = e.getValue().next(5000);
              assertEquals(payload, m.text(), "filter " + e.getKey() + " on topic " + topic);
              assertEquals(topic, m.topic());
              deliveries++;
              matched = true;
            }
          }
          if (matched) {
            received[to]++; // one delivery per client, however many of its filters match
          }
          assertEquals(received[to], transports.get(to).stats().messagesReceived(), "messages received by c" + to);
        }
      }
      int subscriptions = 0;
      for (Map<String, Inbox> subs : model) {
        subscriptions += subs.size();
      }
      assertEquals(subscriptions, broker.indexedSubscriptions(), "the index holds the live subscriptions only, op " + op);
    }
    for (Inbox inbox : all) {
      inbox.assertEmpty(inbox == all.get(all.size() - 1) ? 200 : 0);
    }
    assertEquals(true, deliveries > 100, "the random filters must match often enough to test anything: " + deliveries);
    for (LoopbackTransport t : transports) {
      t.close();
    }
  }
}
