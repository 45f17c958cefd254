"""Training the dice reader's finder and face nets with torch (training only; the product
runs the exports with cv2.dnn): `python -m vision.train.train_reader` is its command."""
