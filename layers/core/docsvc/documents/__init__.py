"""Document types and, in the documents layer, the engines that read them."""
