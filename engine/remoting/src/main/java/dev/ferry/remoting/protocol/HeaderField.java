package dev.ferry.remoting.protocol;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the extension field a header record component travels in, when the wire name differs
 * from the component name (SEND_MESSAGE_V2's one-letter names, {@code bname}, ...).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface HeaderField {
    String value();
}
