package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Counts keyed by what clients name stay bounded, while the totals keep counting. */
class TopicCountersTest {

    @Test
    void pullsUnderEverMoreGroupsAreCountedApartOnlyUpToTheBound() {
        TopicCounters counters = new TopicCounters();
        int pulls = TopicCounters.MAX_GROUP_KEYS + 50;
        for (int i = 0; i < pulls; i++) {
            counters.messagesOut("T", "G" + i, 1, 10);
        }
        assertThat(counters.outByGroup()).hasSize(TopicCounters.MAX_GROUP_KEYS);
        assertThat(counters.bytesOutByGroup()).hasSize(TopicCounters.MAX_GROUP_KEYS);
        assertThat(counters.out("T")).isEqualTo(pulls);
        assertThat(counters.allOut()).isEqualTo(pulls);
    }

    @Test
    void decisionsNamingEverMoreTopicsAreCountedApartOnlyUpToTheBound() {
        TopicCounters counters = new TopicCounters();
        for (int i = 0; i < TopicCounters.MAX_GROUP_KEYS + 50; i++) {
            counters.transactionDecided("T" + i, false);
            counters.deadLettered("T" + i, "G");
        }
        assertThat(counters.rollbacks()).hasSize(TopicCounters.MAX_GROUP_KEYS);
        assertThat(counters.deadLettered()).hasSize(TopicCounters.MAX_GROUP_KEYS);
        counters.transactionDecided("T0", false);
        assertThat(counters.rollbacks().get("T0")).isEqualTo(2);
    }

    @Test
    void deadLettersOfNamesNoTopicOrGroupHasAreNotCountedApart() {
        TopicCounters counters = new TopicCounters();
        counters.deadLettered("x".repeat(32 * 1024), "G");
        counters.deadLettered("not a topic", "G");
        counters.deadLettered("T", "not a group");
        counters.deadLettered("T", "G");
        assertThat(counters.deadLettered()).containsOnly(java.util.Map.entry("T@G", 1L));
    }

    @Test
    void aDeletedGroupsCountsAreForgottenAndOtherGroupsKept() {
        TopicCounters counters = new TopicCounters();
        counters.messagesOut("T1", "G", 1, 10);
        counters.messagesOut("T2", "G", 1, 10);
        counters.messagesOut("T1", "G2", 1, 10);
        counters.messagesOut("T1", "XG", 1, 10);
        counters.deadLettered("T1", "G");
        counters.deadLettered("T1", "G2");

        counters.forgetGroup("G");

        assertThat(counters.outByGroup()).containsOnlyKeys("T1@G2", "T1@XG");
        assertThat(counters.bytesOutByGroup()).containsOnlyKeys("T1@G2", "T1@XG");
        assertThat(counters.deadLettered()).containsOnlyKeys("T1@G2");
        assertThat(counters.out("T1")).as("the topic's totals stay").isEqualTo(3);
    }
}
