package dev.ferry.liberty.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.stream.StreamSupport;

/** Ferry's management beans in a running server, as a test application's probe reads them. */
public final class ManagementView {
    private final JsonNode beans;

    private ManagementView(JsonNode beans) {
        this.beans = beans;
    }

    /** Reads the beans through {@code /<app>/probe/mbeans}. */
    public static ManagementView read(Http http, String app) {
        return new ManagementView(http.getJson("/" + app + "/probe/mbeans"));
    }

    /** The attributes of the activation bean of a consumer group. */
    public Optional<JsonNode> activation(String group) {
        return StreamSupport.stream(beans.spliterator(), false)
                .filter(bean -> bean.get("name").asText().startsWith("dev.ferry:type=Activation"))
                .map(bean -> bean.get("attributes"))
                .filter(attributes -> group.equals(attributes.get("ConsumerGroup").asText())).findFirst();
    }

    /** The attributes of the embedded engine's bean. */
    public Optional<JsonNode> engine() {
        return StreamSupport.stream(beans.spliterator(), false)
                .filter(bean -> bean.get("name").asText().startsWith("dev.ferry:type=EmbeddedEngine"))
                .map(bean -> bean.get("attributes")).findFirst();
    }

    @Override
    public String toString() {
        return beans.toString();
    }
}
