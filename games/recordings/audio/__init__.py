"""The sound of a recorded game: decoding (PyAV), voice activity (Silero VAD under
onnxruntime) and its alignment with the host's speech timer. No Django here."""
