package dev.ferry.samples.orders;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonLocation;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.NoSuchElementException;

/**
 * Reads an order from a request body: a JSON object in UTF-8 with {@code item}, a non-blank string of at most
 * {@value #MAX_ITEM_LENGTH} characters, and optionally {@code quantity}, a whole number from 1 to
 * {@value #MAX_QUANTITY}. Other fields are allowed and kept in the message as sent.
 */
public final class OrderParser {
    static final int MAX_ITEM_LENGTH = 200;
    static final int MAX_QUANTITY = 1_000_000;

    private OrderParser() {
    }

    public static Order parse(byte[] body) throws InvalidOrderException {
        if (body.length == 0) {
            throw new InvalidOrderException("the order is empty");
        }
        String text = utf8(body);
        JsonValue value;
        try (JsonParser parser = Json.createParser(new StringReader(text))) {
            parser.next();
            value = parser.getValue();
            if (parser.hasNext()) {
                throw new InvalidOrderException("the order is not valid JSON: more follows the first value"
                        + at(parser.getLocation(), text));
            }
        } catch (JsonParsingException e) {
            // the parser's location only: its own wording varies between implementations
            throw new InvalidOrderException("the order is not valid JSON" + at(e.getLocation(), text));
        } catch (NoSuchElementException e) {
            throw new InvalidOrderException("the order is not valid JSON: it ends too early");
        } catch (JsonException e) {
            throw new InvalidOrderException("the order is not valid JSON");
        }
        if (!(value instanceof JsonObject order)) {
            throw new InvalidOrderException("the order must be a JSON object, not " + describe(value));
        }
        return new Order(item(order), quantity(order));
    }

    private static String utf8(byte[] body) throws InvalidOrderException {
        try {
            // strict: a JSON reader given bytes would replace what is not UTF-8 and read on
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidOrderException("the order is not UTF-8 text");
        }
    }

    private static String item(JsonObject order) throws InvalidOrderException {
        JsonValue item = order.get("item");
        if (item == null) {
            throw new InvalidOrderException("the order has no \"item\"");
        }
        if (!(item instanceof JsonString text) || text.getString().isBlank()) {
            throw new InvalidOrderException("\"item\" must be a non-blank string");
        }
        if (text.getString().length() > MAX_ITEM_LENGTH) {
            throw new InvalidOrderException("\"item\" must be at most " + MAX_ITEM_LENGTH + " characters");
        }
        return text.getString();
    }

    private static int quantity(JsonObject order) throws InvalidOrderException {
        JsonValue quantity = order.get("quantity");
        if (quantity == null) {
            return 1;
        }
        if (quantity instanceof JsonNumber number && number.isIntegral()
                && number.bigDecimalValue().compareTo(BigDecimal.ONE) >= 0
                && number.bigDecimalValue().compareTo(BigDecimal.valueOf(MAX_QUANTITY)) <= 0) {
            return number.intValue();
        }
        String shown = quantity.toString();
        throw new InvalidOrderException("\"quantity\" must be a whole number from 1 to " + MAX_QUANTITY + ": "
                + (shown.length() > 40 ? shown.substring(0, 40) + "..." : shown));
    }

    private static String at(JsonLocation location, String text) {
        if (location == null || location.getStreamOffset() < 0) {
            return "";
        }
        // at the end of the input a parser's location is past it (Parsson's is)
        return location.getStreamOffset() >= text.length() ? ": it ends too early"
                : " (line " + location.getLineNumber() + ", column " + location.getColumnNumber() + ")";
    }

    private static String describe(JsonValue value) {
        return switch (value.getValueType()) {
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
            case OBJECT -> "an object";
        };
    }
}
