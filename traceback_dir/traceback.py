raise RuntimeError('fake traceback')
