package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.rocketmq.common.topic.TopicValidator;
import org.junit.jupiter.api.Test;

class NameRulesTest {

    @Provide
    Arbitrary<String> names() {
        Arbitrary<String> legal = Arbitraries.strings().withChars("abcXYZ019%|_-").ofMinLength(0).ofMaxLength(140);
        Arbitrary<String> anything = Arbitraries.strings().all().ofMinLength(0).ofMaxLength(140);
        Arbitrary<String> nearlyLegal = Arbitraries.strings().withChars("ab0_-./\n $%|").ofMinLength(1)
                .ofMaxLength(130);
        return Arbitraries.oneOf(legal, anything, nearlyLegal);
    }

    /** Apache's broker is the oracle for ordinary topics; only retry and DLQ topics of long groups differ. */
    @Property(tries = 5000)
    void shouldJudgeTopicsAsApachesTopicValidatorDoes(@ForAll("names") String topic) {
        boolean apacheValid = TopicValidator.validateTopic(topic).isValid();
        boolean ferryValid = NameRules.isValidTopic(topic);
        if (topic.length() <= NameRules.TOPIC_MAX_LENGTH || SystemTopics.groupOf(topic) == null) {
            assertThat(ferryValid).as("topic %s", topic).isEqualTo(apacheValid);
        }
    }

    @Property(tries = 2000)
    void shouldAllowTheSameCharactersInGroupsAsApache(@ForAll("names") String group) {
        boolean apacheLegal = !group.isEmpty() && !TopicValidator.isTopicOrGroupIllegal(group)
                && group.length() <= NameRules.GROUP_MAX_LENGTH;
        assertThat(NameRules.isValidGroup(group)).as("group %s", group).isEqualTo(apacheLegal);
    }

    @Test
    void shouldAcceptTheRetryAndDeadLetterTopicsOfTheLongestValidGroup() {
        String group = "g".repeat(NameRules.GROUP_MAX_LENGTH);

        assertThat(NameRules.groupProblem(group)).isNull();
        assertThat(NameRules.topicProblem(SystemTopics.retryTopic(group))).isNull();
        assertThat(NameRules.topicProblem(SystemTopics.deadLetterTopic(group))).isNull();
        assertThat(SystemTopics.retryTopic(group)).hasSize(NameRules.DERIVED_TOPIC_MAX_LENGTH);
        assertThat(NameRules.topicProblem(SystemTopics.retryTopic(group + "g"))).contains("at most 127");
    }

    @Test
    void shouldRefuseOrdinaryTopicsLongerThanApachesLimit() {
        assertThat(NameRules.topicProblem("t".repeat(127))).isNull();
        assertThat(NameRules.topicProblem("t".repeat(128))).isEqualTo("topic '" + "t".repeat(64)
                + "...' (128 characters) is 128 characters long; at most 127 are allowed");
    }

    @Test
    void shouldNameTheFieldAndShowAtMostTheStartOfAHugeName() {
        String huge = "x".repeat(9_000_000);

        String problem = NameRules.groupProblem("consumerGroup", huge);

        assertThat(problem).startsWith("consumerGroup 'xxxx").contains("(9000000 characters)").hasSizeLessThan(200);
    }

    @Test
    void shouldEscapeControlCharactersSoANameCannotForgeALogLine() {
        assertThat(NameRules.groupProblem("group", "a\nINFO forged")).isEqualTo(
                "group 'a\\u000aINFO forged' contains characters outside ^[%|a-zA-Z0-9_-]+$");
    }

    @Test
    void shouldRefuseBlankAndPathLikeNames() {
        assertThat(NameRules.topicProblem(null)).isEqualTo("topic is blank");
        assertThat(NameRules.topicProblem("")).isEqualTo("topic is blank");
        assertThat(NameRules.groupProblem("../../../tmp/pwn")).contains("characters outside");
        assertThat(NameRules.topicProblem("%RETRY%a/b")).contains("characters outside");
    }

    @Test
    void shouldAcceptBrokerNamesLikeApachesHostNameDefaultAndRefuseOthers() {
        assertThat(NameRules.brokerNameProblem("brokerName", "broker-a")).isNull();
        assertThat(NameRules.brokerNameProblem("brokerName", "host-1.example.com")).isNull();
        assertThat(NameRules.brokerNameProblem("brokerName", "a/b")).contains("characters outside");
        assertThat(NameRules.brokerNameProblem("clusterName", "c".repeat(256))).contains("at most 255");
        for (String name : new String[] {"broker-a", "host-1.example.com", "a/b", "broker a", "", "c".repeat(256)}) {
            assertThat(NameRules.isValidBrokerName(name)).as(name)
                    .isEqualTo(NameRules.brokerNameProblem("brokerName", name) == null);
        }
    }

    @Test
    void shouldAcceptHostPortAddressesAsRocketMqWritesThemAndRefuseOthers() {
        assertThat(NameRules.addressProblem("brokerAddr", "127.0.0.1:10911")).isNull();
        assertThat(NameRules.addressProblem("brokerAddr", "broker-1.example.com:10911")).isNull();
        assertThat(NameRules.addressProblem("brokerAddr", "0:0:0:0:0:0:0:1:10911")).isNull();
        assertThat(NameRules.addressProblem("brokerAddr", "127.0.0.1")).contains("not host:port");
        assertThat(NameRules.addressProblem("brokerAddr", "127.0.0.1:99999")).contains("beyond 65535");
        assertThat(NameRules.addressProblem("brokerAddr", "127.0.0.1:1x")).contains("not a number");
        assertThat(NameRules.addressProblem("brokerAddr", "evil host:1")).contains("characters");
    }
}
