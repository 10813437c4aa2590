package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestSignature;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import dev.ferry.remoting.protocol.header.QueryMessageRequestHeader;
import dev.ferry.remoting.protocol.header.SendMessageRequestHeaderV2;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.constraints.WithNull;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;

/** Ferry signs a request exactly as Apache's {@code AclClientRPCHook} does, and verifies what it signs. */
class SignatureOracleTest {
    private static final int CURRENT_VERSION = 479;
    private static final int LEGACY_VERSION = 399;

    @Property(tries = 200)
    void signsAsApachesHook(@ForAll @StringLength(max = 20) String topic, @ForAll @StringLength(max = 12) String tag,
                            @ForAll byte[] body, @ForAll @StringLength(min = 1, max = 16) String secret) {
        org.apache.rocketmq.remoting.protocol.RemotingCommand apache =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(10, null);
        apache.addExtField("topic", topic);
        apache.addExtField("tags", tag);
        apache.addExtField("queueId", "3");
        apache.setBody(body);
        new AclClientRPCHook(new SessionCredentials("alice", secret)).doBeforeRequest("127.0.0.1:10911", apache);

        Map<String, String> fields = new HashMap<>(Map.of("topic", topic, "tags", tag, "queueId", "3"));
        RemotingCommand ferry = RequestSignature.sign(RemotingCommand.request(10).extFields(fields).body(body).build(),
                new Credentials("alice", secret));

        assertThat(ferry.extField("Signature")).isEqualTo(apache.getExtFields().get("Signature"));
        assertThat(ferry.extField("AccessKey")).isEqualTo("alice");
        assertThat(RequestSignature.verify(ferry, secret)).isTrue();
        assertThat(RequestSignature.verify(ferry, secret + "x")).isFalse();
        RemotingCommand tampered = ferry.toBuilder().body("other".getBytes(StandardCharsets.UTF_8)).build();
        assertThat(RequestSignature.verify(tampered, secret)).isEqualTo(java.util.Arrays.equals(body,
                "other".getBytes(StandardCharsets.UTF_8)));
    }

    @Property(tries = 200)
    void signsATypedHeaderAsApachesHookSignsItsFields(@ForAll @StringLength(max = 20) String topic,
                                                       @ForAll @StringLength(max = 40) String properties,
                                                       @ForAll int queueId, @ForAll long bornTimestamp,
                                                       @ForAll @WithNull Integer reconsumeTimes,
                                                       @ForAll @WithNull Boolean batch, @ForAll byte[] body,
                                                       @ForAll @StringLength(min = 1, max = 16) String secret) {
        RemotingCommand unsigned = RemotingCommand.request(310, new SendMessageRequestHeaderV2("producers", topic,
                        "TBW102", 4, queueId, 0, bornTimestamp, 0, properties, reconsumeTimes, null, 16, batch, null))
                .version(CURRENT_VERSION).body(body).build();
        org.apache.rocketmq.remoting.protocol.RemotingCommand apache =
                org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(310, null);
        unsigned.extFields().forEach(apache::addExtField);
        apache.setBody(body);
        new AclClientRPCHook(new SessionCredentials("alice", secret)).doBeforeRequest("127.0.0.1:10911", apache);

        RemotingCommand ferry = RequestSignature.sign(unsigned, new Credentials("alice", secret));

        assertThat(ferry.extField("Signature")).isEqualTo(apache.getExtFields().get("Signature"));
        assertThat(RequestSignature.verify(ferry, secret)).isTrue();
    }

    /**
     * A typed header is signed as its fields would be in a map (the path the first property holds to Apache's), with
     * explicit fields named between its own, an access key being replaced, and the field legacy clients leave out.
     */
    @Property(tries = 300)
    void signsATypedHeaderAsTheSameFieldsInAMap(@ForAll @StringLength(max = 20) String topic,
                                                @ForAll @WithNull @StringLength(max = 20) String subscription,
                                                @ForAll long queueOffset, @ForAll @WithNull Integer maxMsgBytes,
                                                @ForAll @WithNull @AlphaChars @StringLength(min = 1, max = 8)
                                                String extraName,
                                                @ForAll @StringLength(max = 8) String extraValue,
                                                @ForAll boolean replacesAnAccessKey, @ForAll boolean uniqueKeyQuery,
                                                @ForAll boolean legacy, @ForAll byte[] body) {
        RemotingCommand.Builder builder = RemotingCommand.request(11, new PullMessageRequestHeader("billing", topic,
                        2, queueOffset, 32, 0, 0, 15000, subscription, 0, "TAG", maxMsgBytes, "broker-a"))
                .version(legacy ? LEGACY_VERSION : CURRENT_VERSION).body(body);
        if (extraName != null) {
            builder.extField(extraName, extraValue);
        }
        if (replacesAnAccessKey) {
            builder.extField("AccessKey", "mallory");
        }
        if (uniqueKeyQuery) {
            builder.extField(QueryMessageRequestHeader.UNIQUE_KEY_QUERY, "true");
        }
        RemotingCommand typed = builder.build();
        RemotingCommand inAMap = typed.toBuilder().extFields(new HashMap<>(typed.extFields())).build();
        Credentials alice = new Credentials("alice", "alice-secret");

        RemotingCommand signedTyped = RequestSignature.sign(typed, alice);
        RemotingCommand signedInAMap = RequestSignature.sign(inAMap, alice);

        assertThat(signedInAMap.typedHeader()).isNull();
        assertThat(signedTyped.extField("Signature")).isEqualTo(signedInAMap.extField("Signature"));
        assertThat(signedTyped.extField("AccessKey")).isEqualTo("alice");
        assertThat(RequestSignature.verify(signedTyped, "alice-secret")).isTrue();
        assertThat(RequestSignature.verify(signedInAMap, "alice-secret")).isTrue();
    }
}
