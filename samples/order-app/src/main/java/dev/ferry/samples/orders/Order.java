package dev.ferry.samples.orders;

/** An order as the sample reads it from a request body: what is ordered and how many (1 when not given). */
public record Order(String item, int quantity) {
}
