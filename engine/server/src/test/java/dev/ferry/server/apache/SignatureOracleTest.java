package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestSignature;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;

/** Ferry signs a request exactly as Apache's {@code AclClientRPCHook} does, and verifies what it signs. */
class SignatureOracleTest {

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
}
