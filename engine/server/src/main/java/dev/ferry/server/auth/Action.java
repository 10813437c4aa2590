package dev.ferry.server.auth;

/** What a request does to a resource; a policy entry with {@link #ALL} allows or denies every action. */
public enum Action {
    ALL("All"), PUB("Pub"), SUB("Sub"), CREATE("Create"), UPDATE("Update"), DELETE("Delete"), GET("Get"),
    LIST("List");

    private final String label;

    Action(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The action spelled {@code text} (any case), or {@code null}. */
    public static Action parse(String text) {
        return Named.parse(Action.class, text, Action::label);
    }
}
