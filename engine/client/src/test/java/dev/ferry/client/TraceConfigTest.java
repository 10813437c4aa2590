package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.SystemTopics;
import org.junit.jupiter.api.Test;

/** RocketMQ's enableMsgTrace and customizedTraceTopic on the producer's and consumers' configs. */
class TraceConfigTest {

    @Test
    void shouldTraceToTheDefaultTopicUnlessAnotherIsNamedAndNotAtAllUnlessEnabled() {
        assertThat(ProducerConfig.builder("PG").build().traceTopic()).isEmpty();
        assertThat(ProducerConfig.builder("PG").customizedTraceTopic("TopicT").build().traceTopic()).isEmpty();
        assertThat(ProducerConfig.builder("PG").enableMsgTrace(true).build().traceTopic())
                .contains(SystemTopics.TRACE_TOPIC);
        assertThat(ProducerConfig.builder("PG").enableMsgTrace(true).customizedTraceTopic(" ").build().traceTopic())
                .contains(SystemTopics.TRACE_TOPIC);
        assertThat(PushConsumerConfig.builder("CG").subscribe("TopicA", "*").enableMsgTrace(true)
                .customizedTraceTopic("TopicT").build().traceTopic()).contains("TopicT");
        assertThat(PullConsumerConfig.builder("CG").build().traceTopic()).isEmpty();
        assertThat(PullConsumerConfig.builder("CG").enableMsgTrace(true).build().traceTopic())
                .contains(SystemTopics.TRACE_TOPIC);
    }

    @Test
    void shouldRefuseABadTraceTopicByName() {
        assertThatThrownBy(() -> ProducerConfig.builder("PG").enableMsgTrace(true).customizedTraceTopic("bad topic")
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("customizedTraceTopic")
                .hasMessageContaining("bad topic");
        assertThatThrownBy(() -> PushConsumerConfig.builder("CG").subscribe("TopicA", "*").enableMsgTrace(true)
                .customizedTraceTopic("x".repeat(200)).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("customizedTraceTopic");
        assertThatThrownBy(() -> PullConsumerConfig.builder("CG").enableMsgTrace(true).customizedTraceTopic("a/b")
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("customizedTraceTopic");
    }
}
