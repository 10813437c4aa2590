package dev.ferry.remoting.protocol.body;

import java.util.Set;

/**
 * One topic a consumer group subscribes to, as heartbeats carry it.
 *
 * @param subString      the expression as written ({@code "TagA || TagB"}, {@code "*"}, an SQL92 selector)
 * @param tagsSet        the tags of a TAG expression
 * @param codeSet        {@code String.hashCode()} of each tag, matched against consume-queue tag codes
 * @param subVersion     the subscription's version (a timestamp); a higher one replaces a lower one
 * @param expressionType {@code TAG}, {@code SQL92} or a filter plugin's name
 */
public record SubscriptionData(String topic, String subString, Set<String> tagsSet, Set<Integer> codeSet,
                               long subVersion, String expressionType, boolean classFilterMode) {

    public static final String SUB_ALL = "*";
    public static final String TAG = "TAG";

    public SubscriptionData {
        tagsSet = tagsSet == null ? Set.of() : Set.copyOf(tagsSet);
        codeSet = codeSet == null ? Set.of() : Set.copyOf(codeSet);
        expressionType = expressionType == null || expressionType.isBlank() ? TAG : expressionType;
    }

    /** Whether this is a TAG subscription that accepts every message. */
    public boolean matchesAllTags() {
        return matchesAllTags(expressionType, subString);
    }

    /** Whether a subscription of this type and expression, as a request names them, accepts every message. */
    public static boolean matchesAllTags(String expressionType, String subString) {
        return isTagType(expressionType) && (subString == null || subString.isBlank()
                || SUB_ALL.equals(subString.trim()));
    }

    /** Whether the type names TAG filtering, as a missing or blank one does. */
    public static boolean isTagType(String expressionType) {
        return expressionType == null || expressionType.isBlank() || TAG.equalsIgnoreCase(expressionType);
    }
}
